import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachCheckpoints, dropCheckpoint, listCheckpoints, writeCheckpoint } from '../../../../src/emulator/state/checkpoint-store.js';
import { openDatabase } from '../../../../src/store/db.js';
import { tempDir } from '../../../helpers/temp.js';

const dir = tempDir('scanctl-checkpoint-space-');
/** The checkpoints file and its write-ahead log, in bytes. */
const size = (db: string) => [`${db}.checkpoints`, `${db}.checkpoints-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);

function fill(path: string) {
  const db = openDatabase(path);
  db.exec('CREATE TABLE bulk (id INTEGER PRIMARY KEY, data BLOB)');
  const insert = db.prepare('INSERT INTO bulk (data) VALUES (randomblob(4000))');
  db.transaction(() => {
    for (let i = 0; i < 500; i += 1) insert.run();
  })();
  attachCheckpoints(db);
  const row = (id: string) => ({ id, name: null, created_at: 0, clock_offset_ms: 0, schema_version: 1, rows: 0 });
  for (const id of ['cp_1', 'cp_2', 'cp_3']) writeCheckpoint(db, row(id), ['bulk'], () => undefined);
  return db;
}

describe('CHOICE-45: the checkpoints file gives space back', () => {
  it('CHOICE-45: deleting checkpoints shrinks the checkpoints file to about what the rest hold', () => {
    const path = join(dir, 'a.db');
    const db = fill(path);
    db.pragma('checkpoints.wal_checkpoint(TRUNCATE)');
    const full = size(path);
    expect(full).toBeGreaterThan(3 * 500 * 4000);
    dropCheckpoint(db, 'cp_1');
    dropCheckpoint(db, 'cp_2');
    const one = size(path);
    expect(one).toBeLessThan(full / 2);
    dropCheckpoint(db, 'cp_3');
    expect(listCheckpoints(db)).toEqual([]);
    expect(size(path)).toBeLessThan(100_000);
    db.close();
  });

  it('CHOICE-45: a checkpoints file made before auto_vacuum is vacuumed into it at its next delete', () => {
    const path = join(dir, 'b.db');
    // The file of an older scanctl: no auto_vacuum.
    const old = new Database(`${path}.checkpoints`);
    old.pragma('journal_mode = WAL');
    old.close();
    const db = fill(path);
    expect(db.pragma('checkpoints.auto_vacuum', { simple: true })).toBe(0);
    db.pragma('checkpoints.wal_checkpoint(TRUNCATE)');
    const full = size(path);
    dropCheckpoint(db, 'cp_1');
    dropCheckpoint(db, 'cp_2');
    expect(db.pragma('checkpoints.auto_vacuum', { simple: true })).toBe(2);
    expect(size(path)).toBeLessThan(full / 2);
    db.close();
  });
});
