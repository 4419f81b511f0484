import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf } from '../row-statements.js';

export function metaStatements(db: Db) {
  const get = rowsOf(db, () => z.string()).pluck<[string]>('SELECT value FROM meta WHERE key = ?');
  const set = db.prepare<[string, string]>(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare<[string]>('DELETE FROM meta WHERE key = ?');
  return {
    get: (key: string): string | undefined => get.get(key),
    set: (key: string, value: string): void => void set.run(key, value),
    delete: (key: string): void => void remove.run(key),
  };
}
