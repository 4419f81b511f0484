import { Hono, type Context } from 'hono';
import {
  EnrollmentRequest,
  MeshFitRequest,
  ModelKeyRequest,
  ResultUploadRequest,
  ScanEventRequest,
} from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import {
  authenticateSessionToken,
  enroll,
  issueChallenge,
  issueModelKey,
  meshFit,
  modelBytes,
  modelManifest,
  requireModel,
  type DeviceAuth,
} from '../domain/device.js';
import { reportScanEvent, requireIdempotencyKey, withIdempotency } from '../domain/scans.js';
import { requireResultsDelivery, storeResult } from '../domain/stored-results.js';
import { readJson } from '../validate.js';

/**
 * The device routes (CHOICE-7 shapes): challenge, enrollment, models, model key, mesh fitting,
 * scan events, result upload. Each takes only a session token (AUTH-13) on the emulator's clock.
 * Only POST /v1/scan-events is scope-gated (SES-7, SES-8).
 */
export function deviceRoutes(ctx: EmulatorContext) {
  const { store } = ctx;
  const auth = (c: Context<AppEnv>): DeviceAuth => {
    const result = authenticateSessionToken(store, ctx.clock.now(), c.req.header('authorization'));
    c.set('logKey', result.display);
    c.set('logEnv', result.session.env);
    c.set('logAppId', result.app.id);
    return result;
  };

  return new Hono<AppEnv>()
    .post('/v1/device/challenge', (c) => {
      const device = auth(c);
      return c.json(issueChallenge(store, ctx.ids, ctx.clock.now(), device.app), 201);
    })
    .post('/v1/device/enrollments', async (c) => {
      const device = auth(c);
      const body = await readJson(c, EnrollmentRequest);
      const { view, created } = enroll(store, ctx.clock.now(), device.app, body);
      return c.json(view, created ? 201 : 200);
    })
    .get('/v1/models', (c) => {
      auth(c);
      return c.json({ object: 'list', data: modelManifest() });
    })
    .get('/v1/models/:model_version', (c) => {
      auth(c);
      const version = c.req.param('model_version');
      requireModel(version);
      const bytes = modelBytes(version)!;
      return c.body(new Uint8Array(bytes), 200, {
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
      });
    })
    .post('/v1/model-key', async (c) => {
      const device = auth(c);
      const body = await readJson(c, ModelKeyRequest);
      return c.json(issueModelKey(store, ctx.clock.now(), device, body), 200);
    })
    .post('/v1/mesh-fits', async (c) => {
      const device = auth(c);
      const body = await readJson(c, MeshFitRequest);
      return c.json(meshFit(store, ctx.ids, ctx.clock.now(), device, body), 201);
    })
    .post('/v1/scan-events', async (c) => {
      const device = auth(c);
      // SES-7: without scan.create the scan is refused before anything is read or recorded.
      if (!device.scopes.includes('scan.create')) {
        throw new ApiError(
          'insufficient_scope',
          'This session token was minted without the scan.create scope, so it cannot report scans; nothing was recorded. Use a test key for unbilled scans.',
        );
      }
      const key = requireIdempotencyKey(c.req.header('idempotency-key'));
      const body = await readJson(c, ScanEventRequest);
      const request = [body.installation_id, body.scan_id, body.status, body.occurred_at, body.model_version];
      const now = ctx.clock.now();
      const answer = withIdempotency(store, now, device.app.id, key, request, () => reportScanEvent(store, ctx.ids, now, device, body));
      if (answer.replayed) c.header('Idempotent-Replayed', 'true');
      else ctx.webhooks.kick();
      return c.json(answer.body, answer.status as 200);
    })
    .put('/v1/scans/:scan_id/result', async (c) => {
      const device = auth(c);
      // DEV-7, DEV-9: refused before the body is read; nothing is stored.
      requireResultsDelivery(device);
      const body = await readJson(c, ResultUploadRequest);
      const answer = storeResult(store, ctx.ids, ctx.clock.now(), device, c.req.param('scan_id'), body);
      if (!answer.body.duplicate) ctx.webhooks.kick();
      return c.json(answer.body, answer.status);
    });
}
