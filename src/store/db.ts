import { z } from 'zod';
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MIGRATIONS, runMigrations } from './migrations/index.js';
import { openSqlite } from './sqlite.js';
import { SecretBox } from '../util/crypto.js';
import { CHOICES } from '../contract/choices.js';
import { makeDir } from '../util/make-dir.js';
import { damaged, refuseDamaged, refuseEmptyFile, refuseWrongVersion } from './open-checks.js';
import { errorMessage, errorCode } from '../util/caught.js';
import { rowsOf } from './row-statements.js';

export type Db = ReturnType<typeof openSqlite>;

/** Thrown when another process holds the database (a second `scanctl serve` on the same file). */
export class DatabaseLockedError extends Error {
  constructor(readonly path: string) {
    super(`the database ${path} is in use by another scanctl serve`);
    this.name = 'DatabaseLockedError';
  }
}

export class DatabaseTooNewError extends Error {
  constructor(
    readonly path: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database ${path} is at schema version ${found}, newer than this scanctl knows (${known}): upgrade scanctl or use another --db`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenOptions {
  /** Hold an exclusive lock for the life of the connection, so that a second server fails at once. */
  exclusive?: boolean;
  /** The caller is about to empty the database (--reset): a zero-length file is taken. */
  reset?: boolean;
}

/**
 * Opens (or creates) the emulator's SQLite database in WAL mode and applies pending migrations
 * in one transaction. synchronous=NORMAL in WAL mode keeps every committed transaction across a
 * process crash (kill -9); only a power loss could drop the last commits.
 */
export function openDatabase(path: string, options: OpenOptions = {}): Db {
  // The folder holds the database and its sealing key: owner-only (docs/security.md).
  if (path !== ':memory:') makeDir(dirname(path), CHOICES.privateDirMode);
  refuseEmptyFile(path, Boolean(options.reset));
  const created = path !== ':memory:' && !existsSync(path);
  const db = openSqlite(path, { timeout: 0 });
  try {
    if (options.exclusive && path !== ':memory:') {
      db.pragma('locking_mode = EXCLUSIVE');
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -8192');
    if (options.exclusive && path !== ':memory:') {
      // Take the lock now rather than at the first write.
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    }
    refuseDamaged(db, path);
    // --reset drops every table and migrates afresh: what the file's version says does not matter.
    if (!options.reset) migrate(db, path);
    return db;
  } catch (error) {
    db.close();
    // A file this start created and could not fill (a full disk) would be refused as empty next time.
    if (created) removeEmpty(path);
    if (isBusy(error)) throw new DatabaseLockedError(path);
    const code = errorCode(error);
    // (A file that is not SQLite at all, SQLITE_NOTADB, keeps its own message: cannot open ...: file is not a database.)
    if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) throw damaged(path, errorMessage(error));
    throw error;
  }
}

function removeEmpty(path: string): void {
  try {
    if (statSync(path).size > 0) return;
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  } catch {
    // Nothing to tidy.
  }
}

function isBusy(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

export function schemaVersion(db: Db): number {
  return z.number().parse(db.pragma('user_version', { simple: true }));
}

/** Applies the migrations the database has not had yet, in one transaction: the one migration runner. */
export function migrate(db: Db, path: string): void {
  const current = schemaVersion(db);
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > latest) throw new DatabaseTooNewError(path, current, latest);
  const pending = MIGRATIONS.filter((m) => m.version > current);
  if (pending.length === 0) return;
  refuseWrongVersion(db, path, current);
  db.transaction(() => {
    runMigrations(db, current);
    db.pragma(`user_version = ${latest}`);
  })();
}

/** `serve --reset`: drops every table so the migrations build a fresh schema, under the lock already held. */
export function resetDatabase(db: Db, path: string): void {
  const tables = rowsOf(db, () => z.string())
    .pluck("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all();
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const name of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.pragma('user_version = 0');
  })();
  db.pragma('foreign_keys = ON');
  migrate(db, path);
}

/**
 * The key that seals webhook signing secrets, kept in a file beside the database (mode 0600)
 * so that the database file alone holds no secret in plain text. In-memory databases get a fresh key.
 */
export function loadSecretBox(dbPath: string): SecretBox {
  if (dbPath === ':memory:') return SecretBox.random();
  const keyPath = `${dbPath}.key`;
  if (existsSync(keyPath)) return new SecretBox(Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64'));
  const key = randomBytes(32);
  writeFileSync(keyPath, `${key.toString('base64')}\n`, { mode: CHOICES.privateFileMode });
  chmodSync(keyPath, CHOICES.privateFileMode);
  return new SecretBox(key);
}
