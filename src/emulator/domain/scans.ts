import { CHOICES } from '../../contract/choices.js';
import { IDEMPOTENCY_KEY_PATTERN, type Scan, type ScanEventRequest, type ScanEventResponse } from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import { parseRfc3339, toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { ScanListRow, ScanRow } from '../../store/tables/device.js';
import { sha256Hex } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';
import { recordScanEvent } from '../../webhooks/outbox.js';
import { isBillable } from './billing.js';
import { blockedError, enrolledInstallation, type DeviceAuth } from './device.js';
import { MODEL_VERSIONS } from '../../contract/device.js';

export function scanView(row: ScanRow | ScanListRow, resultStored?: boolean): Scan {
  return {
    object: 'scan',
    id: row.id,
    app_id: row.app_id,
    installation_id: row.installation_id,
    host_user_ref: row.host_user_ref,
    env: row.env,
    status: row.status,
    model_version: row.model_version,
    started_at: row.started_at === null ? null : toIso(row.started_at),
    occurred_at: row.occurred_at === null ? null : toIso(row.occurred_at),
    recorded_at: toIso(row.recorded_at),
    billable: row.billable === 1,
    reports: row.reports,
    result_stored: resultStored ?? ('result_stored' in row && row.result_stored === 1),
  };
}

/** SES-6: one token authorizes one scan session: it binds to the first scan_id it reports. */
export function bindTokenToScan(store: Store, auth: DeviceAuth, scanId: string): void {
  const bound = auth.session.scan_id;
  if (bound !== null && bound !== scanId) {
    throw new ApiError(
      'session_token_used',
      `This session token already ran scan ${bound}; one token authorizes one scan session. Mint a new token for scan ${scanId}.`,
    );
  }
  if (bound === null) {
    store.sessions.bindScan(auth.session.id, scanId);
    auth.session.scan_id = scanId;
  }
}

/** DEV-5: POST /v1/scan-events requires an Idempotency-Key header (printable ASCII, at most 255 characters). */
export function requireIdempotencyKey(header: string | undefined): string {
  if (header === undefined || header === '') {
    throw new ApiError(
      'idempotency_key_missing',
      'POST /v1/scan-events requires an Idempotency-Key header: one fresh key per event, reused on its retries.',
      'Idempotency-Key',
    );
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new ApiError(
      'parameter_invalid',
      'The Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.',
      'Idempotency-Key',
    );
  }
  return header;
}

/** An answer as stored for an Idempotency-Key, and whether this request replayed it. */
export type StoredAnswer<R extends { status: number; body: unknown }> = R & { replayed: boolean };

/**
 * CHOICE-7 idempotency: keys are scoped per app and remembered for CHOICES.idempotencyKeyLifetimeMs.
 * The same key with the same request replays the first answer (status and body); the same key
 * with another request is 409 idempotency_key_reused. Only successful answers are remembered, so a
 * refused event can be retried once its cause is fixed. `run` executes inside the same transaction.
 */
export function withIdempotency(
  store: Store,
  now: number,
  appId: string,
  key: string,
  request: unknown,
  run: () => ScanEventAnswer,
): StoredAnswer<ScanEventAnswer> {
  const requestHash = sha256Hex(JSON.stringify(request));
  return store.db.transaction(() => {
    // Only a key younger than its lifetime is read (created_at + lifetime > now).
    const seen = store.device.liveIdempotency(appId, key, now - CHOICES.idempotencyKeyLifetimeMs);
    if (seen) {
      if (seen.request_hash !== requestHash) {
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request; use a fresh key for each new event.',
          'Idempotency-Key',
        );
      }
      return { status: seen.status, body: seen.response, replayed: true };
    }
    const answer = run();
    store.device.saveIdempotency({
      app_id: appId,
      key,
      request_hash: requestHash,
      status: answer.status,
      response: answer.body,
      created_at: now,
    });
    return { ...answer, replayed: false };
  })();
}

function parseOccurredAt(text: string, now: number): number {
  const ms = parseRfc3339(text);
  if (Number.isNaN(ms)) throw new ApiError('parameter_invalid', 'Invalid occurred_at: not a date-time.', 'occurred_at');
  if (ms > now + CHOICES.occurredAtSkewMs) {
    throw new ApiError(
      'parameter_invalid',
      `Invalid occurred_at: ${toIso(ms)} is in the future (the service's clock reads ${toIso(now)}).`,
      'occurred_at',
    );
  }
  return ms;
}

/** 201 the first time a scan is recorded, 200 for every later event of it. */
export type ScanEventAnswer = { status: 201; body: ScanEventResponse } | { status: 200; body: ScanEventResponse };

/**
 * DEV-5, SES-6, DEV-3, BILL-1..5: records one scan event. A scan is reported as `started` and
 * then with its outcome, or straight with its outcome (an offline scan syncing later, DEV-6).
 * A repeated outcome is a duplicate report: counted, never charged or sent again (BILL-5, WH-10).
 * scan.completed / scan.failed go into the outbox in the same transaction; abandoned sends nothing.
 */
export function reportScanEvent(store: Store, ids: Ids, now: number, auth: DeviceAuth, body: ScanEventRequest): ScanEventAnswer {
  const occurredAt = parseOccurredAt(body.occurred_at, now);
  if (!(MODEL_VERSIONS as readonly string[]).includes(body.model_version)) {
    throw new ApiError(
      'parameter_invalid',
      `Invalid model_version: no model ${body.model_version}; GET /v1/models lists them.`,
      'model_version',
    );
  }
  return store.db.transaction((): ScanEventAnswer => {
    const installation = enrolledInstallation(store, auth.app, body.installation_id, false);
    const { session } = auth;
    const existing = store.device.scan(auth.app.id, body.scan_id);
    bindTokenToScan(store, auth, body.scan_id);
    store.device.touchInstallation(installation.id, null, now);

    if (!existing) {
      // DEV-3: a blocked installation's next scan fails to start; nothing is recorded.
      if (installation.status === 'blocked') throw blockedError(installation.id);
      const outcome = body.status !== 'started';
      const row: ScanRow = {
        app_id: auth.app.id,
        id: body.scan_id,
        installation_id: installation.id,
        session_id: session.id,
        env: session.env,
        host_user_ref: session.host_user_ref,
        status: body.status,
        model_version: body.model_version,
        occurred_at: outcome ? occurredAt : null,
        started_at: outcome ? null : occurredAt,
        recorded_at: now,
        billable: isBillable(session.env, body.status) ? 1 : 0,
        reports: 1,
      };
      store.device.insertScan(row);
      if (outcome) emitOutcome(store, ids, now, row);
      return { status: 201, body: { object: 'scan_event', duplicate: false, scan: scanView(row, false) } };
    }

    if (existing.installation_id !== installation.id || existing.host_user_ref !== session.host_user_ref || existing.env !== session.env) {
      throw new ApiError(
        'scan_conflict',
        `Scan ${body.scan_id} was recorded for another installation, member or key environment; scan ids must be unique per scan.`,
        'scan_id',
      );
    }
    if (existing.status === 'started' && body.status !== 'started') {
      const billable = isBillable(existing.env, body.status) ? 1 : 0;
      store.device.finishScan({ app_id: auth.app.id, id: existing.id, status: body.status, occurred_at: occurredAt, billable });
      const row = store.device.scan(auth.app.id, existing.id)!;
      emitOutcome(store, ids, now, row);
      return { status: 200, body: { object: 'scan_event', duplicate: false, scan: scanView(row, false) } };
    }
    if (body.status !== 'started' && existing.status !== 'started' && body.status !== existing.status) {
      throw new ApiError(
        'scan_conflict',
        `Scan ${body.scan_id} already ended ${existing.status}; it cannot become ${body.status}.`,
        'status',
      );
    }
    // The same outcome again, or a late "started": a duplicate report, recorded once (BILL-5).
    store.device.countReport(auth.app.id, existing.id);
    const row = store.device.scan(auth.app.id, existing.id)!;
    return {
      status: 200,
      body: { object: 'scan_event', duplicate: true, scan: scanView(row, store.device.resultStored(auth.app.id, row.id)) },
    };
  })();
}

function emitOutcome(store: Store, ids: Ids, now: number, row: ScanRow): void {
  if (row.status !== 'completed' && row.status !== 'failed') return;
  recordScanEvent(store, ids, now, {
    type: row.status === 'completed' ? 'scan.completed' : 'scan.failed',
    appId: row.app_id,
    scanId: row.id,
    hostUserRef: row.host_user_ref,
    occurredAt: row.occurred_at!,
    modelVersion: row.model_version,
  });
}
