import { streamLogger } from '../../../src/util/logger.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGroupCommit } from '../../../src/store/group-commit.js';
import { StorageConditionLog, storageCondition, withStorageLog } from '../../../src/store/storage-condition.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../helpers/emulator.js';

afterEach(() => vi.restoreAllMocks());

/**
 * Fills the database to a page limit of its own (SQLite's max_page_count): every write that needs
 * a new page then fails with SQLITE_FULL, as on a full disk. Returns how to lift the limit.
 */
function fillDisk(emu: TestEmulator): () => void {
  const db = emu.store.db;
  db.exec('CREATE TABLE filler (x BLOB)');
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 4}`);
  const insert = db.prepare('INSERT INTO filler VALUES (randomblob(512))');
  for (let i = 0; i < 10_000; i += 1) {
    try {
      insert.run();
    } catch (error) {
      expect((error as { code?: string }).code).toBe('SQLITE_FULL');
      return () => void db.pragma('max_page_count = 1073741823');
    }
  }
  throw new Error('the page limit never filled');
}

const sessionCount = (emu: TestEmulator) => emu.store.db.prepare('SELECT count(*) FROM sessions').pluck().get() as number;

describe('storage conditions (CHOICE-36)', () => {
  it('CHOICE-36: a full disk answers 507 storage_full with the error body, stores nothing, logs one line (no stack), and service resumes once space is freed', async () => {
    // The host's log on stderr, as serve has it.
    const emu = testEmulator({ logger: streamLogger(process.stderr) });
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const consoleError = vi.spyOn(console, 'error');
    const free = fillDisk(emu);
    // The sessions table's last page may still hold a few: mint until the first refusal.
    let first = await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'member_full' } });
    for (let i = 0; first.status === 201 && i < 500; i += 1) {
      first = await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: `member_full_${i}` } });
    }
    const before = sessionCount(emu);
    const answers = [first];
    for (let i = 0; i < 5; i += 1)
      answers.push(await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: `member_more_${i}` } }));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(507);
      expect(expectErrorBody(answer.body)).toMatchObject({ type: 'api_error', code: 'storage_full' });
    }
    expect(sessionCount(emu)).toBe(before);
    expect(consoleError).not.toHaveBeenCalled();
    const lines = logged.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes('storage'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^scanctl: storage: the disk holding the database is full.*\[SQLITE_FULL\]\n$/);

    free();
    const again = await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'member_after' } });
    expect(again.status).toBe(201);
    expect(sessionCount(emu)).toBe(before + 1);
  });

  it('CHOICE-36: each condition is told from what SQLite throws, and anything else is not one', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(storageCondition(err('SQLITE_FULL'))).toBe('full');
    expect(storageCondition(err('SQLITE_IOERR_WRITE'))).toBe('io');
    expect(storageCondition(err('SQLITE_IOERR'))).toBe('io');
    expect(storageCondition(err('SQLITE_BUSY'))).toBe('busy');
    expect(storageCondition(err('SQLITE_BUSY_TIMEOUT'))).toBe('busy');
    expect(storageCondition(err('SQLITE_CORRUPT'))).toBe('damaged');
    expect(storageCondition(err('SQLITE_NOTADB'))).toBe('damaged');
    expect(storageCondition(new TypeError('The database connection is not open'))).toBe('closed');
    expect(storageCondition(err('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageCondition(new Error('boom'))).toBeNull();
  });

  it('CHOICE-36: the log says a condition once, then again only after a minute, with the count met meanwhile', () => {
    const lines: string[] = [];
    let now = 0;
    const log = new StorageConditionLog(
      (line) => lines.push(line),
      () => now,
    );
    const full = Object.assign(new Error('full'), { code: 'SQLITE_FULL' });
    log.note('full', full);
    log.note('full', full);
    log.note('full', full);
    now = StorageConditionLog.SAY_AGAIN_MS + 1;
    log.note('full', full);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/\(2 more since the last line\)/);
  });

  it("CHOICE-36: each emulator's logger carries its own storage log, which its HTTP side and dispatcher are handed as it is", () => {
    const lines: string[] = [];
    const host = { warn: () => undefined, info: (line: string) => void lines.push(line), error: () => undefined };
    const one = testEmulator({ logger: host });
    const two = testEmulator({ logger: host });
    expect(one.logger.storage).toBeInstanceOf(StorageConditionLog);
    expect(withStorageLog(one.logger)).toBe(one.logger);
    // Two emulators of one host logger say their own conditions: nothing is kept per logger object.
    expect(two.logger.storage).not.toBe(one.logger.storage);
    const full = Object.assign(new Error('full'), { code: 'SQLITE_FULL' });
    one.logger.storage.note('full', full);
    withStorageLog(one.logger).storage.note('full', full);
    two.logger.storage.note('full', full);
    expect(lines).toEqual([expect.stringMatching(/^storage: the disk/), expect.stringMatching(/^storage: the disk/)]);
  });
});

describe('group commit at a stop (CHOICE-35)', () => {
  it('CHOICE-35: flush() commits what is queued at once, so the database can close before the turn ends', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE items (name TEXT)');
    const group = createGroupCommit(db);
    const queued = group.run(() => db.prepare("INSERT INTO items VALUES ('a')").run().changes);
    group.flush();
    db.close();
    await expect(queued).resolves.toBe(1);
  });
});

describe('storage conditions over a file (CHOICE-36)', () => {
  it('CHOICE-36: a database locked past the busy timeout answers 503 storage_busy with Retry-After; a store that refuses writes answers 503 storage_unavailable; both resume', async () => {
    const { createEmulator } = await import('../../../src/emulator/create-emulator.js');
    const { openDatabase } = await import('../../../src/store/db.js');
    const { applyFixtures } = await import('../../../src/emulator/domain/apply-fixtures.js');
    const { readFixtures } = await import('../../../src/emulator/fixture-file.js');
    const { tempDir } = await import('../../helpers/temp.js');
    const { FIXTURES_FILE } = await import('../../helpers/emulator.js');
    const { join } = await import('node:path');
    const path = join(tempDir('scanctl-busy-'), 'emulator.db');
    const db = openDatabase(path);
    const emulator = createEmulator({ db, config: { defaultAppId: DEMO.appId } });
    applyFixtures(emulator.store, emulator.ids, emulator.box, emulator.clock.now(), readFixtures(FIXTURES_FILE));
    const mint = async (ref: string) => {
      const response = await emulator.app.request('/v1/sessions', {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ host_user_ref: ref }),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    };
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const consoleError = vi.spyOn(console, 'error');

    // Another connection holds the write lock (serve's busy timeout is 0).
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const busy = await mint('member_busy');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(expectErrorBody(busy.body)).toMatchObject({ type: 'api_error', code: 'storage_busy' });
    other.exec('ROLLBACK');
    other.close();
    expect((await mint('member_free')).status).toBe(201);

    db.pragma('query_only = ON');
    const refused = await mint('member_readonly');
    expect(refused.status).toBe(503);
    expect(expectErrorBody(refused.body)).toMatchObject({ type: 'api_error', code: 'storage_unavailable' });
    db.pragma('query_only = OFF');
    expect((await mint('member_again')).status).toBe(201);
    expect(consoleError).not.toHaveBeenCalled();
    logged.mockRestore();
    db.close();
  });
});
