import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../../src/store/group-commit.js';

function setup() {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
  const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
  const names = () => (db.prepare('SELECT name FROM items ORDER BY name').all() as Array<{ name: string }>).map((r) => r.name);
  const runs: string[] = [];
  const write = (name: string) => () => {
    runs.push(name);
    insert.run(name);
    return name.toUpperCase();
  };
  return { db, group: createGroupCommit(db), names, runs, write };
}

describe('store group commit', () => {
  it('items of one turn share a transaction and settle only after it committed', async () => {
    const { db, group, names, write } = setup();
    const seen: Array<{ inTransaction: boolean; visible: string[] }> = [];
    const a = group.run(write('a'));
    const b = group.run(() => {
      // Item a's row is visible to item b: the same transaction, not yet committed.
      seen.push({ inTransaction: db.inTransaction, visible: names() });
      return write('b')();
    });
    // Nothing runs before the turn ends.
    expect(names()).toEqual([]);
    const settled = await Promise.all([a, b].map((p) => p.then((value) => ({ value, inTransaction: db.inTransaction, stored: names() }))));
    expect(seen).toEqual([{ inTransaction: true, visible: ['a'] }]);
    expect(settled).toEqual([
      { value: 'A', inTransaction: false, stored: ['a', 'b'] },
      { value: 'B', inTransaction: false, stored: ['a', 'b'] },
    ]);
  });

  it('an item that throws fails alone: the group runs again with a savepoint per item', async () => {
    const { group, names, runs, write } = setup();
    const results = await Promise.allSettled([
      group.run(write('a')),
      group.run(() => {
        write('b')();
        throw new Error('refused');
      }),
      group.run(write('c')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['A', 'refused', 'C']);
    // b's row was rolled back with its savepoint; a and c are stored once.
    expect(names()).toEqual(['a', 'c']);
    // The first pass (one transaction) rolled back at b; the second ran each item in a savepoint.
    expect(runs).toEqual(['a', 'b', 'a', 'b', 'c']);
  });

  it('items of different turns are different transactions: a failure later does not touch an earlier commit', async () => {
    const { group, names, runs, write } = setup();
    await expect(group.run(write('a'))).resolves.toBe('A');
    await expect(group.run(write('a'))).rejects.toThrow(/UNIQUE/);
    expect(names()).toEqual(['a']);
    expect(runs).toEqual(['a', 'a', 'a']);
  });

  it('a failed commit rejects every item of the group', async () => {
    const { db, group, names, write } = setup();
    // A deferred foreign key is only checked at COMMIT: the whole group's commit fails.
    db.exec('PRAGMA foreign_keys = ON; CREATE TABLE parents (id TEXT PRIMARY KEY)');
    db.exec('CREATE TABLE children (parent TEXT REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)');
    const orphan = db.prepare("INSERT INTO children (parent) VALUES ('nobody')");
    const results = await Promise.allSettled([group.run(write('a')), group.run(() => orphan.run())]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(names()).toEqual([]);
  });
});
