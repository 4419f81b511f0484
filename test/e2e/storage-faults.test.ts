import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { mountSmallDisk } from '../helpers/small-disk.js';
import { tempDir } from '../helpers/temp.js';

const disk = mountSmallDisk();
const noDisk = typeof disk === 'string' ? disk : null;
afterAll(() => {
  if (typeof disk !== 'string') disk.unmount();
});
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const mint = (baseUrl: string, ref: string) =>
  fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ host_user_ref: ref }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

/** Nothing but the one-line message and its hint: no "bug", no stack trace. */
function expectOneLine(stderr: string, message: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(message);
  expect(lines.slice(1).every((line) => line.startsWith('  hint: '))).toBe(true);
  expect(stderr).not.toMatch(/bug|\n\s+at /);
}

describe('storage faults as expected conditions (CHOICE-36, CHOICE-38; built CLI)', () => {
  it('a damaged database file: serve refuses it at start in one line with a hint, exit 2, and writes nothing into it', async () => {
    const dir = tempDir('scanctl-damaged-');
    const db = join(dir, 'emulator.db');
    const serve = await startServe([], { db });
    for (let i = 0; i < 50; i += 1) expect((await mint(serve.baseUrl, `member_${i}`)).status).toBe(201);
    expect(await serve.stop()).toBe(0);
    const bytes = readFileSync(db);
    // Garbage over every page past the first few: tables and indexes both.
    bytes.fill(0x5a, 4096 * 3);
    writeFileSync(db, bytes);
    const start = await runCli(['serve', '--port', '0', '--db', db]);
    expect(start.code).toBe(2);
    expectOneLine(start.stderr, /^scanctl: the database .*emulator\.db is damaged \(/);
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });

  it.skipIf(noDisk)(`a full disk at start is said in one line, exit 2; once freed, serve starts (${noDisk ?? 'tmpfs'})`, async () => {
    if (typeof disk === 'string') return;
    const db = join(disk.dir, 'start.db');
    disk.fill();
    try {
      const start = await runCli(['serve', '--port', '0', '--db', db]);
      expect(start.code).toBe(2);
      expectOneLine(start.stderr, /^scanctl: the disk holding the database .*start\.db is full: scanctl cannot start on it$/);
    } finally {
      disk.free();
    }
    const serve = await startServe([], { db, dir: disk.dir });
    expect(await serve.stop()).toBe(0);
  });

  it.skipIf(noDisk)(
    `CHOICE-36: a disk that fills while serving: 507 storage_full, nothing half-stored, serve stays up and resumes when space is freed (${noDisk ?? 'tmpfs'})`,
    async () => {
      if (typeof disk === 'string') return;
      const serve: ServeProcess = await startServe([], { db: join(disk.dir, 'run.db'), dir: disk.dir });
      cleanups.push(async () => (disk.free(), serve.kill()));
      expect((await mint(serve.baseUrl, 'member_before')).status).toBe(201);
      disk.fill();
      // The WAL may still have room for a few: mint until the first refusal (bounded).
      let refused = null;
      let acknowledged = 0;
      for (let i = 0; i < 3000 && !refused; i += 1) {
        const answer = await mint(serve.baseUrl, `member_full_${i}`);
        if (answer.status === 201) acknowledged += 1;
        else refused = answer;
      }
      expect(refused).toEqual({ status: 507, body: { error: { type: 'api_error', code: 'storage_full', message: expect.any(String) } } });
      for (let i = 0; i < 3; i += 1) expect((await mint(serve.baseUrl, `member_more_${i}`)).status).toBe(507);
      // Reads still answer.
      expect((await fetch(`${serve.baseUrl}/_scanctl/apps/${DEMO.appId}`)).status).toBe(200);

      disk.free();
      expect((await mint(serve.baseUrl, 'member_after')).status).toBe(201);
      expect(await serve.stop()).toBe(0);
      const log = serve.stderr();
      expect(log.match(/scanctl: storage: /g)).toHaveLength(1);
      expect(log).not.toMatch(/internal error|\n\s+at /);
      // What was acknowledged is in the file after the stop; what was refused is not.
      const file = new Database(join(disk.dir, 'run.db'), { readonly: true });
      const count = (pattern: string) => file.prepare('SELECT count(*) FROM sessions WHERE host_user_ref LIKE ?').pluck().get(pattern);
      expect(count('member_full_%')).toBe(acknowledged);
      expect(count('member_more_%')).toBe(0);
      expect(count('member_after')).toBe(1);
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      file.close();
    },
  );
});
