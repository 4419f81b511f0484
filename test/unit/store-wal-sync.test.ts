import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundWalSync, WAL_SYNC_EVERY_MS, type WalSyncFs } from '../../src/store/wal-sync.js';

/** A file system that records calls and answers when told. */
function fakeFs(openError: NodeJS.ErrnoException | null = null) {
  const calls: string[] = [];
  const pending: Array<() => void> = [];
  const fs: WalSyncFs = {
    open: (path, flags, callback) => (calls.push(`open ${path} ${flags}`), pending.push(() => callback(openError, 7))),
    fdatasync: (fd, callback) => (calls.push(`fdatasync ${fd}`), pending.push(() => callback(null))),
    close: (fd, callback) => (calls.push(`close ${fd}`), pending.push(() => callback(null))),
  };
  const settle = () => {
    while (pending.length > 0) pending.shift()!();
  };
  return { fs, calls, settle };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('background WAL sync', () => {
  it("after a commit, syncs the database's WAL off the event loop: open, fdatasync, close; one at a time, at most every 20 ms", () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { fs, calls, settle } = fakeFs();
    const committed = backgroundWalSync({ memory: false, name: '/data/emulator.db' }, fs);
    committed();
    committed(); // one under way: nothing more
    expect(calls).toEqual(['open /data/emulator.db-wal r']);
    settle();
    expect(calls).toEqual(['open /data/emulator.db-wal r', 'fdatasync 7', 'close 7']);
    committed(); // done, but too soon
    expect(calls).toHaveLength(3);
    vi.advanceTimersByTime(WAL_SYNC_EVERY_MS);
    committed();
    expect(calls).toHaveLength(4);
  });

  it('an in-memory database has no WAL: nothing is called', () => {
    const { fs, calls } = fakeFs();
    backgroundWalSync({ memory: true, name: ':memory:' }, fs)();
    expect(calls).toEqual([]);
  });

  it('a WAL that cannot be opened (gone with a closed database) is skipped, and the next commit tries again', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { fs, calls, settle } = fakeFs(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }));
    const committed = backgroundWalSync({ memory: false, name: '/gone/emulator.db' }, fs);
    committed();
    settle();
    expect(calls).toEqual(['open /gone/emulator.db-wal r']);
    vi.advanceTimersByTime(WAL_SYNC_EVERY_MS);
    committed();
    expect(calls).toEqual(['open /gone/emulator.db-wal r', 'open /gone/emulator.db-wal r']);
  });
});
