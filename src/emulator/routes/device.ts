import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import { enroll, issueChallenge, issueModelKey, meshFit, modelBytes, modelManifest, requireModel } from '../domain/device.js';
import { reportScanEvent, requireIdempotencyKey, withIdempotency } from '../domain/scans.js';
import { rawMember } from '../../util/raw-json.js';
import { requireResultsDelivery, storeResult } from '../domain/stored-results.js';
import { implement } from '../http/implement.js';

/**
 * The SDK's routes (CHOICE-7 shapes). Each takes only a session token (AUTH-13) on the emulator's
 * clock; only POST /v1/scan-events is scope-gated (SES-7, SES-8).
 */
export const deviceRoutes = [
  implement(OPS.createDeviceChallenge)(({ ctx, caller }) => ({
    status: 201,
    body: issueChallenge(ctx.store, ctx.ids, ctx.clock.now(), caller.app),
  })),
  implement(OPS.enrollInstallation)(({ ctx, caller, body }) => {
    const { view, created } = enroll(ctx.store, ctx.clock.now(), caller.app, body);
    return created ? { status: 201, body: view } : { status: 200, body: view };
  }),
  implement(OPS.listModels)(() => ({ status: 200, body: { object: 'list', data: modelManifest() } })),
  implement(OPS.downloadModel)(({ c, params }) => {
    requireModel(params.model_version);
    const bytes = modelBytes(params.model_version)!;
    return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
  }),
  implement(OPS.getModelKey)(({ ctx, caller, body }) => ({ status: 200, body: issueModelKey(ctx.store, ctx.clock.now(), caller, body) })),
  implement(OPS.createMeshFit)(({ ctx, caller, body }) => ({
    status: 201,
    body: meshFit(ctx.store, ctx.ids, ctx.clock.now(), caller, body),
  })),
  implement(OPS.reportScanEvent, {
    before({ c, caller }) {
      // SES-7: without scan.create the scan is refused before anything is read or recorded.
      if (!caller.scopes.includes('scan.create')) {
        throw new ApiError(
          'insufficient_scope',
          'This session token lacks the scan.create scope, so it cannot report scans: nothing was recorded.',
        );
      }
      requireIdempotencyKey(c.req.header('idempotency-key'));
    },
  })(({ ctx, c, caller, body }) => {
    const key = requireIdempotencyKey(c.req.header('idempotency-key'));
    // CHOICE-21: the caller's member and key environment are part of the request, so the same key and
    // body under another member's token is a conflict (409), never a replay of someone else's answer.
    const request = [
      body.installation_id,
      body.scan_id,
      body.status,
      body.occurred_at,
      body.model_version,
      caller.session.host_user_ref,
      caller.session.env,
    ];
    const now = ctx.clock.now();
    const answer = withIdempotency(ctx.store, now, caller.app.id, key, request, () =>
      reportScanEvent(ctx.store, ctx.ids, now, caller, body),
    );
    return answer.replayed ? { ...answer, headers: { 'Idempotent-Replayed': 'true' } } : answer;
  }),
  // DEV-7, DEV-9: refused before the body is read; nothing is stored.
  implement(OPS.uploadScanResult, { before: ({ caller }) => requireResultsDelivery(caller) })(({ ctx, c, caller, params, body }) => {
    // WH-3: the result's own text, so the webhook carries it byte for byte (never re-serialized numbers).
    const resultJson = rawMember(c.get('jsonText')!, 'result')!;
    // The delivery it queues wakes the dispatcher through the store's outbox, as every recorded event does.
    return storeResult(ctx.store, ctx.ids, ctx.clock.now(), caller, params.scan_id, { ...body, resultJson });
  }),
] as const;
