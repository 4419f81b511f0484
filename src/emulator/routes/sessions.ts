import { Hono } from 'hono';
import { ApiError } from '../../contract/errors.js';
import { CreateSessionRequest } from '../../contract/sessions.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { authenticateSecretKey, sessionAuthError } from '../domain/keys.js';
import { mintSessionGrouped } from '../domain/sessions.js';
import { readJson } from '../validate.js';
import { enforceRateLimit } from './rate-limit.js';

export function sessionRoutes(ctx: EmulatorContext) {
  return new Hono<AppEnv>().post('/v1/sessions', async (c) => {
    const now = ctx.clock.now();
    const auth = authenticateSecretKey(ctx.store, now, c.req.header('authorization'));
    if (!auth.ok) throw sessionAuthError(auth);
    c.set('logKey', auth.key.display);
    c.set('logEnv', auth.env);
    c.set('logAppId', auth.app.id);
    enforceRateLimit(ctx, auth.key.id, now);
    // SES-3: retries are safe without it, so the header is refused rather than silently ignored.
    if (c.req.header('idempotency-key') !== undefined) {
      throw new ApiError(
        'idempotency_key_not_accepted',
        'POST /v1/sessions does not accept an Idempotency-Key header; a retried mint simply yields another token.',
        'Idempotency-Key',
      );
    }
    const body = await readJson(c, CreateSessionRequest);
    return c.json(await mintSessionGrouped(ctx.store, ctx.ids, ctx.clock.now(), auth, body), 201);
  });
}
