import type { ScanEventResponse } from '../../contract/device.js';
import type { Db } from '../db.js';
import { JSON_COLUMNS, readJsonCell, readValueCell, VALUE_COLUMNS } from '../json-columns.js';
import { usageStatements } from './usage.js';

export interface ChallengeRow {
  hash: string;
  app_id: string;
  expires_at: number;
  used_at: number | null;
}

export interface InstallationRow {
  id: string;
  app_id: string;
  status: 'enrolled' | 'blocked';
  bundle_id: string;
  team_id: string;
  app_version: string | null;
  enrolled_at: number;
  enrollments: number;
  blocked_at: number | null;
  last_seen_at: number;
}

export interface ScanRow {
  app_id: string;
  id: string;
  installation_id: string;
  session_id: string;
  env: 'test' | 'live';
  host_user_ref: string;
  status: 'started' | 'completed' | 'failed' | 'abandoned';
  model_version: string;
  occurred_at: number | null;
  started_at: number | null;
  recorded_at: number;
  billable: number;
  reports: number;
}

export type ScanListRow = ScanRow & { result_stored: number };

/** `body` stays the text as uploaded: the event splices it in as is (WH-3), and a re-upload compares it canonically (DEV-8). */
export interface ResultRow {
  app_id: string;
  scan_id: string;
  host_user_ref: string;
  env: 'test' | 'live';
  body: string;
  stored_at: number;
  uploads: number;
}

export interface IdempotencyRow {
  app_id: string;
  key: string;
  request_hash: string;
  /** The answer a retry with the same key replays (DEV-5). */
  status: 200 | 201;
  response: ScanEventResponse;
  created_at: number;
}

/** The row as stored: the answer as JSON text. */
type IdempotencyCells = Omit<IdempotencyRow, 'status' | 'response'> & { status: number; response: string };

export interface UsageSqlRow {
  app_id: string;
  month: string;
  monthly_active_users: number;
  billable_scans: number;
  test_scans: number;
  test_active_users: number;
  completed_scans: number;
  failed_scans: number;
  abandoned_scans: number;
}

/** Installations, challenges, scans, stored results, idempotency keys. */
export function deviceStatements(db: Db) {
  const insertChallenge = db.prepare<ChallengeRow>(
    'INSERT INTO challenges (hash, app_id, expires_at, used_at) VALUES (@hash, @app_id, @expires_at, @used_at)',
  );
  const challenge = db.prepare<[string], ChallengeRow>('SELECT * FROM challenges WHERE hash = ?');
  const useChallenge = db.prepare<{ hash: string; now: number }>(
    'UPDATE challenges SET used_at = @now WHERE hash = @hash AND used_at IS NULL AND expires_at > @now',
  );
  const purgeChallenges = db.prepare<[number]>('DELETE FROM challenges WHERE expires_at <= ?');

  const installation = db.prepare<[string], InstallationRow>('SELECT * FROM installations WHERE id = ?');
  const installationsForApp = db.prepare<[string], InstallationRow>(
    'SELECT * FROM installations WHERE app_id = ? ORDER BY enrolled_at, id',
  );
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

  const scan = db.prepare<[string, string], ScanRow>('SELECT * FROM scans WHERE app_id = ? AND id = ?');
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
  const listScans = db.prepare<{ app_id: string; limit: number }, ScanListRow>(listScansSql('s.app_id = @app_id'));
  const listMemberScans = db.prepare<{ app_id: string; host_user_ref: string; limit: number }, ScanListRow>(
    listScansSql('s.app_id = @app_id AND s.host_user_ref = @host_user_ref'),
  );
  const resultStored = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM results WHERE app_id = ? AND scan_id = ?');

  const result = db.prepare<[string, string], ResultRow>('SELECT * FROM results WHERE app_id = ? AND scan_id = ?');
  const insertResult = db.prepare<ResultRow>(`
    INSERT INTO results (app_id, scan_id, host_user_ref, env, body, stored_at, uploads)
    VALUES (@app_id, @scan_id, @host_user_ref, @env, @body, @stored_at, @uploads)`);
  const countUpload = db.prepare<[string, string]>('UPDATE results SET uploads = uploads + 1 WHERE app_id = ? AND scan_id = ?');
  const deleteResults = db.prepare<[string, string]>('DELETE FROM results WHERE app_id = ? AND host_user_ref = ?');

  const liveIdempotency = db.prepare<[string, string, number], IdempotencyCells>(
    'SELECT * FROM idempotency_keys WHERE app_id = ? AND key = ? AND created_at > ?',
  );
  const saveIdempotency = db.prepare<IdempotencyCells>(`
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
    resultStored: (appId: string, scanId: string) => (resultStored.get(appId, scanId)?.n ?? 0) > 0,

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
