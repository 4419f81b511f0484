import { close, fdatasync, open } from 'node:fs';
import type { Db } from './db.js';

/** At most this often (real ms) while commits keep coming. */
export const WAL_SYNC_EVERY_MS = 20;

/** The file calls it makes (tests pass their own). */
export interface WalSyncFs {
  open: (path: string, flags: string, callback: (error: NodeJS.ErrnoException | null, fd: number) => void) => void;
  fdatasync: (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;
  close: (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;
}

/**
 * Writes the WAL's new pages to disk in the background, in libuv's thread pool. With
 * synchronous=NORMAL, SQLite fsyncs the WAL before each checkpoint (every ~1,000 pages), on the
 * event loop: under a stream of deliveries that fsync blocked it ~1.6 ms each time, three
 * quarters of all the time spent in fsync. Synced ahead, it finds little left to write. This only
 * adds syncing: SQLite's own fsyncs, and so what survives a crash or a power loss, are unchanged.
 * Returns what to call after each commit; a no-op for an in-memory database.
 */
export function backgroundWalSync(db: Pick<Db, 'memory' | 'name'>, fs: WalSyncFs = { open, fdatasync, close }): () => void {
  if (db.memory) return () => {};
  const path = `${db.name}-wal`;
  let busy = false;
  let last = -Infinity;
  const done = (fd: number) => fs.close(fd, () => (busy = false));
  return () => {
    if (busy || performance.now() - last < WAL_SYNC_EVERY_MS) return;
    busy = true;
    last = performance.now();
    // Opened each time: the WAL goes away when the database closes (a missing file is nothing to sync).
    fs.open(path, 'r', (error, fd) => {
      if (error) busy = false;
      else fs.fdatasync(fd, () => done(fd));
    });
  };
}
