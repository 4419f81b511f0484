import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseLockedError, DatabaseTooNewError, loadSecretBox, openDatabase, schemaVersion } from '../../../src/store/db.js';
import { LATEST_SCHEMA_VERSION } from '../../../src/contract/state.js';
import { FIRST_VERSION, MIGRATIONS } from '../../../src/store/migrations/index.js';
import { DatabaseRefusedError } from '../../../src/store/open-checks.js';
import { tempDir } from '../../helpers/temp.js';

const tempDb = () => join(tempDir('scanctl-store-'), 'nested', 'emulator.db');
const LATEST = MIGRATIONS.at(-1)!.version;

describe('store and migrations', () => {
  it('migrations are numbered from FIRST_VERSION on without gaps, in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => FIRST_VERSION + i));
    for (const m of MIGRATIONS) expect(m.name).toMatch(new RegExp(`^${String(m.version).padStart(4, '0')}-`));
    // The state file's schema_version bound in the contract (and the OpenAPI document) is the last migration.
    expect(LATEST_SCHEMA_VERSION).toBe(LATEST);
  });

  it('a fresh database gets every migration, user_version = latest, WAL mode, and creates its folder', () => {
    const path = tempDb();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(LATEST);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r: any) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'apps', 'api_keys', 'sessions', 'quota_usage', 'portal_sessions', 'meta']));
    db.close();
    expect(existsSync(path)).toBe(true);
  });

  it('reopening applies nothing twice and keeps the data', () => {
    const path = tempDb();
    const db = openDatabase(path);
    db.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
    db.close();
    const again = openDatabase(path);
    expect(schemaVersion(again)).toBe(LATEST);
    expect(again.prepare("SELECT value FROM meta WHERE key = 'k'").get()).toEqual({ value: 'v' });
    again.close();
  });

  it('a database newer than the code is a clear error naming the file and both versions, and is left untouched', () => {
    const path = tempDb();
    openDatabase(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST + 5}`);
    raw.close();
    let error: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as DatabaseTooNewError).message).toBe(
      `the database ${path} is at schema version ${LATEST + 5}, newer than this scanctl knows (${LATEST}): upgrade scanctl or use another --db`,
    );
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST + 5);
    check.close();
  });

  it('an exclusive connection locks out a second one at once with DatabaseLockedError; closing releases it', () => {
    const path = tempDb();
    const first = openDatabase(path, { exclusive: true });
    first.prepare("INSERT INTO meta (key, value) VALUES ('owner', 'first')").run();
    // At once: a waiting open would time this test out (no busy timeout on the lock check).
    expect(() => openDatabase(path, { exclusive: true })).toThrow(DatabaseLockedError);
    expect(() => openDatabase(path)).toThrow(DatabaseLockedError);
    try {
      openDatabase(path, { exclusive: true });
    } catch (error) {
      expect((error as Error).message).toBe(`the database ${path} is in use by another scanctl serve`);
    }
    // The first connection is unharmed.
    first.prepare("INSERT INTO meta (key, value) VALUES ('still', 'works')").run();
    expect(first.prepare('SELECT count(*) AS n FROM meta').get()).toEqual({ n: 2 });
    first.close();
    const second = openDatabase(path, { exclusive: true });
    expect(second.prepare("SELECT value FROM meta WHERE key = 'owner'").get()).toEqual({ value: 'first' });
    second.close();
  });

  it(':memory: databases need no lock and no key file', () => {
    const a = openDatabase(':memory:', { exclusive: true });
    const b = openDatabase(':memory:', { exclusive: true });
    expect(schemaVersion(a)).toBe(LATEST);
    expect(schemaVersion(b)).toBe(LATEST);
    a.close();
    b.close();
    // Each in-memory emulator gets a fresh sealing key: one cannot open another's secret.
    expect(() => loadSecretBox(':memory:').open(loadSecretBox(':memory:').seal('x'))).toThrow();
  });
});

describe('loadSecretBox', () => {
  it('keeps its key beside the database with mode 0600, and reuses it', () => {
    const path = tempDb();
    openDatabase(path).close();
    const box = loadSecretBox(path);
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(statSync(`${path}.key`).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(`${path}.key`, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(loadSecretBox(path).open(sealed)).toBe('whsec_abc');
  });

  const refusal = (path: string, options = {}): DatabaseRefusedError => {
    try {
      openDatabase(path, options).close();
    } catch (error) {
      expect(error).toBeInstanceOf(DatabaseRefusedError);
      return error as DatabaseRefusedError;
    }
    throw new Error(`${path} was not refused`);
  };

  it('CHOICE-38: user_version 0 over existing tables is refused with a hint, and the file is left untouched', () => {
    const path = tempDb();
    openDatabase(path).close();
    const raw = new Database(path);
    raw.pragma('user_version = 0');
    raw.close();
    const error = refusal(path);
    expect(error.message).toBe(
      `the database ${path} has tables but no schema version (user_version 0): it is not a scanctl database, or its version was reset`,
    );
    expect(error.hint).toMatch(/--reset/);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(0);
    check.close();
  });

  it('CHOICE-38: a user_version set lower than the tables really are is refused, not migrated again', () => {
    const path = tempDb();
    openDatabase(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST - 1}`);
    raw.close();
    // Below FIRST_VERSION every version is a pre-release one; above it, the tables must be that version's.
    expect(refusal(path).message).toBe(
      LATEST - 1 < FIRST_VERSION
        ? `the database ${path} is at schema version ${LATEST - 1} (user_version), a schema from before scanctl 0.1.0 that this scanctl cannot upgrade`
        : `the database ${path} says schema version ${LATEST - 1} (user_version), but its tables are not that version's`,
    );
    // --reset takes it: every table is dropped and built again.
    openDatabase(path, { reset: true }).close();
  });

  it('CHOICE-38: a zero-length file is refused (not silently a new database) unless --reset', () => {
    const path = tempDb();
    openDatabase(path).close();
    rmSync(path);
    rmSync(`${path}-wal`, { force: true });
    writeFileSync(path, '');
    const error = refusal(path);
    expect(error.message).toBe(`the database ${path} is an empty file (0 bytes), not a scanctl database`);
    expect(statSync(path).size).toBe(0);
    openDatabase(path, { reset: true }).close();
  });

  it('a damaged file is refused at start by quick_check, with a hint, before anything is written into it', () => {
    const path = tempDb();
    const db = openDatabase(path);
    db.exec('CREATE TABLE padding (x BLOB)');
    const insert = db.prepare('INSERT INTO padding VALUES (randomblob(3000))');
    for (let i = 0; i < 40; i += 1) insert.run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // Garbage over a page in the middle of the file (not the header): the kind of damage a bad disk leaves.
    const bytes = readFileSync(path);
    const pageSize = 4096;
    bytes.fill(0xa5, pageSize * 20, pageSize * 21);
    writeFileSync(path, bytes);
    const error = refusal(path);
    expect(error.message).toMatch(new RegExp(`^the database ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(`));
    expect(error.hint).toMatch(/^move the file aside and start again/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
