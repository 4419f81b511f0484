import { z } from 'zod';
import type { Db } from '../db.js';
import { rowsOf } from '../row-statements.js';

export function quotaStatements(db: Db) {
  const get = rowsOf(db, () => z.number().int()).pluck<[string, string]>('SELECT count FROM quota_usage WHERE app_id = ? AND day = ?');
  const increment = db.prepare<[string, string]>(`
    INSERT INTO quota_usage (app_id, day, count) VALUES (?, ?, 1)
    ON CONFLICT(app_id, day) DO UPDATE SET count = count + 1`);
  return {
    used: (appId: string, day: string) => get.get(appId, day) ?? 0,
    increment: (appId: string, day: string) => void increment.run(appId, day),
  };
}
