import { z } from 'zod';
import type { Db } from '../db.js';
import { JSON_COLUMNS, jsonCell, readJsonCell, readValueCell, VALUE_COLUMNS } from '../json-columns.js';
import { rowsOf, type CellsOf, type RowOf } from '../row-statements.js';
import { usageStatements } from './usage.js';

const env = () => z.enum(['test', 'live']);

const challengeRow = () =>
  z.strictObject({ hash: z.string(), app_id: z.string(), expires_at: z.number().int(), used_at: z.number().int().nullable() });
export type ChallengeRow = RowOf<typeof challengeRow>;

const installationRow = () =>
  z.strictObject({
    id: z.string(),
    app_id: z.string(),
    status: z.enum(['enrolled', 'blocked']),
    bundle_id: z.string(),
    team_id: z.string(),
    app_version: z.string().nullable(),
    enrolled_at: z.number().int(),
    enrollments: z.number().int(),
    blocked_at: z.number().int().nullable(),
    last_seen_at: z.number().int(),
  });
export type InstallationRow = RowOf<typeof installationRow>;

const scanColumns = () => ({
  app_id: z.string(),
  id: z.string(),
  installation_id: z.string(),
  session_id: z.string(),
  env: env(),
  host_user_ref: z.string(),
  status: z.enum(['started', 'completed', 'failed', 'abandoned']),
  model_version: z.string(),
  occurred_at: z.number().int().nullable(),
  started_at: z.number().int().nullable(),
  recorded_at: z.number().int(),
  billable: z.number().int(),
  reports: z.number().int(),
});
const scanRow = () => z.strictObject(scanColumns());
export type ScanRow = RowOf<typeof scanRow>;

const scanListRow = () => z.strictObject({ ...scanColumns(), result_stored: z.number().int() });
export type ScanListRow = RowOf<typeof scanListRow>;

/** `body` stays the text as uploaded: the event splices it in as is (WH-3), and a re-upload compares it canonically (DEV-8). */
const resultRow = () =>
  z.strictObject({
    app_id: z.string(),
    scan_id: z.string(),
    host_user_ref: z.string(),
    env: env(),
    body: z.string(),
    stored_at: z.number().int(),
    uploads: z.number().int(),
  });
export type ResultRow = RowOf<typeof resultRow>;

const idempotencyRow = () =>
  z.strictObject({
    app_id: z.string(),
    key: z.string(),
    request_hash: z.string(),
    /** The answer a retry with the same key replays (DEV-5). */
    status: VALUE_COLUMNS.idempotency_keys.status,
    response: jsonCell(JSON_COLUMNS.idempotency_keys.response),
    created_at: z.number().int(),
  });
export type IdempotencyRow = RowOf<typeof idempotencyRow>;

/** Installations, challenges, scans, stored results, idempotency keys. */
export function deviceStatements(db: Db) {
  const insertChallenge = db.prepare<ChallengeRow>(
    'INSERT INTO challenges (hash, app_id, expires_at, used_at) VALUES (@hash, @app_id, @expires_at, @used_at)',
  );
  const challenge = rowsOf(db, challengeRow).prepare<[string]>('SELECT * FROM challenges WHERE hash = ?');
  const useChallenge = db.prepare<{ hash: string; now: number }>(
    'UPDATE challenges SET used_at = @now WHERE hash = @hash AND used_at IS NULL AND expires_at > @now',
  );
  const purgeChallenges = db.prepare<[number]>('DELETE FROM challenges WHERE expires_at <= ?');

  const installations = rowsOf(db, installationRow);
  const installation = installations.prepare<[string]>('SELECT * FROM installations WHERE id = ?');
  const installationsForApp = installations.prepare<[string]>('SELECT * FROM installations WHERE app_id = ? ORDER BY enrolled_at, id');
  const insertInstallation = db.prepare<InstallationRow>(`
    INSERT INTO installations (id, app_id, status, bundle_id, team_id, app_version, enrolled_at, enrollments, blocked_at, last_seen_at)
    VALUES (@id, @app_id, @status, @bundle_id, @team_id, @app_version, @enrolled_at, @enrollments, @blocked_at, @last_seen_at)`);
  const reenroll = db.prepare<{ id: string; app_version: string | null; now: number }>(`
    UPDATE installations SET enrollments = enrollments + 1, enrolled_at = @now, last_seen_at = @now,
      app_version = coalesce(@app_version, app_version) WHERE id = @id`);
  const touchInstallation = db.prepare<{ id: string; app_version: string | null; now: number }>(
    'UPDATE installations SET last_seen_at = @now, app_version = coalesce(@app_version, app_version) WHERE id = @id',
  );
  const setBlocked = db.prepare<{ id: string; blocked: number; now: number }>(`
    UPDATE installations SET status = CASE WHEN @blocked = 1 THEN 'blocked' ELSE 'enrolled' END,
      blocked_at = CASE WHEN @blocked = 1 THEN @now END WHERE id = @id`);

  const scan = rowsOf(db, scanRow).prepare<[string, string]>('SELECT * FROM scans WHERE app_id = ? AND id = ?');
  const insertScan = db.prepare<ScanRow>(`
    INSERT INTO scans (app_id, id, installation_id, session_id, env, host_user_ref, status, model_version, occurred_at,
      started_at, recorded_at, billable, reports)
    VALUES (@app_id, @id, @installation_id, @session_id, @env, @host_user_ref, @status, @model_version, @occurred_at,
      @started_at, @recorded_at, @billable, @reports)`);
  const finishScan = db.prepare<{ app_id: string; id: string; status: string; occurred_at: number; billable: number }>(`
    UPDATE scans SET status = @status, occurred_at = @occurred_at, billable = @billable, reports = reports + 1
    WHERE app_id = @app_id AND id = @id AND status = 'started'`);
  const countReport = db.prepare<[string, string]>('UPDATE scans SET reports = reports + 1 WHERE app_id = ? AND id = ?');
  // Newest first, one statement per filter so that each reads its index (scans_recorded,
  // scans_user_recorded) in order and stops at the limit.
  const listScansSql = (where: string) => `
    SELECT s.*, (r.scan_id IS NOT NULL) AS result_stored FROM scans s
    LEFT JOIN results r ON r.app_id = s.app_id AND r.scan_id = s.id
    WHERE ${where} ORDER BY s.recorded_at DESC, s.rowid DESC LIMIT @limit`;
  const scanList = rowsOf(db, scanListRow);
  const listScans = scanList.prepare<{ app_id: string; limit: number }>(listScansSql('s.app_id = @app_id'));
  const listMemberScans = scanList.prepare<{ app_id: string; host_user_ref: string; limit: number }>(
    listScansSql('s.app_id = @app_id AND s.host_user_ref = @host_user_ref'),
  );
  const resultStored = rowsOf(db, () => z.number().int()).pluck<[string, string]>(
    'SELECT count(*) FROM results WHERE app_id = ? AND scan_id = ?',
  );

  const result = rowsOf(db, resultRow).prepare<[string, string]>('SELECT * FROM results WHERE app_id = ? AND scan_id = ?');
  const insertResult = db.prepare<ResultRow>(`
    INSERT INTO results (app_id, scan_id, host_user_ref, env, body, stored_at, uploads)
    VALUES (@app_id, @scan_id, @host_user_ref, @env, @body, @stored_at, @uploads)`);
  const countUpload = db.prepare<[string, string]>('UPDATE results SET uploads = uploads + 1 WHERE app_id = ? AND scan_id = ?');
  const deleteResults = db.prepare<[string, string]>('DELETE FROM results WHERE app_id = ? AND host_user_ref = ?');

  const liveIdempotency = rowsOf(db, idempotencyRow).prepare<[string, string, number]>(
    'SELECT * FROM idempotency_keys WHERE app_id = ? AND key = ? AND created_at > ?',
  );
  const saveIdempotency = db.prepare<CellsOf<typeof idempotencyRow>>(`
    INSERT INTO idempotency_keys (app_id, key, request_hash, status, response, created_at)
    VALUES (@app_id, @key, @request_hash, @status, @response, @created_at)
    ON CONFLICT(app_id, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
      response = excluded.response, created_at = excluded.created_at`);
  const purgeIdempotency = db.prepare<[number, number]>(
    'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at <= ? LIMIT ?)',
  );

  // BILL-4: counters kept as scans get their outcome (./usage.ts).
  const usage = usageStatements(db);

  return {
    insertChallenge: (row: ChallengeRow) => void insertChallenge.run(row),
    challenge: (hash: string) => challenge.get(hash),
    /** Marks a challenge used; false when it was unknown, used or expired (single use). */
    useChallenge: (hash: string, now: number) => useChallenge.run({ hash, now }).changes > 0,
    purgeChallenges: (now: number) => void purgeChallenges.run(now),

    installation: (id: string) => installation.get(id),
    installationsForApp: (appId: string) => installationsForApp.all(appId),
    insertInstallation: (row: InstallationRow) => void insertInstallation.run(row),
    reenroll: (id: string, appVersion: string | null, now: number) => void reenroll.run({ id, app_version: appVersion, now }),
    touchInstallation: (id: string, appVersion: string | null, now: number) =>
      void touchInstallation.run({ id, app_version: appVersion, now }),
    setBlocked: (id: string, blocked: boolean, now: number) => setBlocked.run({ id, blocked: blocked ? 1 : 0, now }).changes > 0,

    scan: (appId: string, id: string) => scan.get(appId, id),
    insertScan(row: ScanRow): void {
      insertScan.run(row);
      usage.count(row);
    },
    /** Moves a started scan to its outcome; false when it was not "started". */
    finishScan(row: { app_id: string; id: string; status: string; occurred_at: number; billable: number }): boolean {
      if (finishScan.run(row).changes === 0) return false;
      usage.count(scan.get(row.app_id, row.id)!);
      return true;
    },
    countReport: (appId: string, id: string) => void countReport.run(appId, id),
    listScans: (appId: string, hostUserRef: string | null, limit: number) =>
      hostUserRef === null
        ? listScans.all({ app_id: appId, limit })
        : listMemberScans.all({ app_id: appId, host_user_ref: hostUserRef, limit }),
    resultStored: (appId: string, scanId: string) => (resultStored.get(appId, scanId) ?? 0) > 0,

    result: (appId: string, scanId: string) => result.get(appId, scanId),
    insertResult: (row: ResultRow) => void insertResult.run(row),
    countUpload: (appId: string, scanId: string) => void countUpload.run(appId, scanId),
    deleteResults: (appId: string, hostUserRef: string) => deleteResults.run(appId, hostUserRef).changes,

    /** The key's answer if it was created after `createdAfter` (an older one has expired and is not parsed). */
    liveIdempotency(appId: string, key: string, createdAfter: number): IdempotencyRow | undefined {
      const row = liveIdempotency.get(appId, key, createdAfter);
      return (
        row && {
          ...row,
          status: readValueCell(VALUE_COLUMNS.idempotency_keys.status, row.status),
          response: readJsonCell(JSON_COLUMNS.idempotency_keys.response, row.response),
        }
      );
    },
    saveIdempotency: (row: IdempotencyRow) => void saveIdempotency.run({ ...row, response: JSON.stringify(row.response) }),
    /** Deletes at most `limit` keys created at or before `before`; returns how many went. */
    purgeIdempotency: (before: number, limit: number) => purgeIdempotency.run(before, limit).changes,

    usage: (appId: string | null, month: string | null) => usage.rows(appId, month),
  };
}
