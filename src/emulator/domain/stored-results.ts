import type { ScanResultUpload } from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import { toIso } from '../../contract/time.js';
import type { Store } from '../../store/index.js';
import type { Ids } from '../../util/ids.js';
import { canonicalJson } from '../../util/raw-json.js';
import { recordScanEvent } from '../../webhooks/outbox.js';
import { enrolledInstallation, type DeviceAuth } from './device.js';
import { bindTokenToScan } from './scans.js';

/** DEV-7, DEV-9: checked before the body is even read, so nothing of a refused upload is kept. */
export function requireResultsDelivery(auth: DeviceAuth): void {
  if (!auth.app.results_delivery_enabled) {
    throw new ApiError(
      'results_delivery_disabled',
      `Results delivery is off for ${auth.app.id}: the result stays on the device. This refusal is permanent; do not retry.`,
    );
  }
}

/** 201 when stored, 200 for a re-upload of the same result. */
export type ResultUploadAnswer = { status: 201; body: ScanResultUpload } | { status: 200; body: ScanResultUpload };

/**
 * Stores a completed scan's result (results delivery on). DEV-8: a re-upload is the same result:
 * one stored row, one scan.results_available. A different result for the same scan is a conflict.
 * The event is written in the same transaction as the row (outbox).
 */
export function storeResult(
  store: Store,
  ids: Ids,
  now: number,
  auth: DeviceAuth,
  scanId: string,
  body: { installation_id: string; result: Record<string, unknown>; resultJson: string },
): ResultUploadAnswer {
  return store.db.transaction((): ResultUploadAnswer => {
    requireResultsDelivery(auth);
    enrolledInstallation(store, auth.app, body.installation_id, false);
    const scan = store.device.scan(auth.app.id, scanId);
    if (!scan)
      throw new ApiError('resource_missing', `No scan ${scanId} of ${auth.app.id}: report it with POST /v1/scan-events first.`, 'scan_id');
    if (
      scan.installation_id !== body.installation_id ||
      scan.host_user_ref !== auth.session.host_user_ref ||
      scan.env !== auth.session.env
    ) {
      throw new ApiError('scan_conflict', `Scan ${scanId} belongs to another installation, member or key environment.`, 'scan_id');
    }
    bindTokenToScan(store, auth, scanId);
    if (scan.status !== 'completed') {
      throw new ApiError('scan_not_completed', `Scan ${scanId} is ${scan.status}: only a completed scan has a result.`, 'scan_id');
    }
    const existing = store.device.result(auth.app.id, scanId);
    if (existing) {
      if (canonicalJson(existing.body) !== canonicalJson(body.resultJson)) {
        throw new ApiError('scan_conflict', `Scan ${scanId} already has a different stored result; a scan has exactly one.`, 'result');
      }
      store.device.countUpload(auth.app.id, scanId);
      return {
        status: 200,
        body: { object: 'scan_result', scan_id: scanId, stored: true, duplicate: true, stored_at: toIso(existing.stored_at) },
      };
    }
    store.device.insertResult({
      app_id: auth.app.id,
      scan_id: scanId,
      host_user_ref: scan.host_user_ref,
      env: scan.env,
      body: body.resultJson,
      stored_at: now,
      uploads: 1,
    });
    recordScanEvent(store, ids, now, {
      type: 'scan.results_available',
      appId: auth.app.id,
      scanId,
      hostUserRef: scan.host_user_ref,
      occurredAt: scan.occurred_at!,
      modelVersion: scan.model_version,
      result: body.result,
      resultJson: body.resultJson,
    });
    return { status: 201, body: { object: 'scan_result', scan_id: scanId, stored: true, duplicate: false, stored_at: toIso(now) } };
  })();
}

/** DEL-2: removes every stored result of the member under the app (both key environments); returns how many. */
export function deleteStoredResults(store: Store, appId: string, hostUserRef: string): number {
  return store.device.deleteResults(appId, hostUserRef);
}
