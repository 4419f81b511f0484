import { Hono } from 'hono';
import { ApiError } from '../../contract/errors.js';
import { CreateSessionRequest } from '../../contract/sessions.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { sessionAuthError } from '../domain/keys.js';
import { mintSession } from '../domain/sessions.js';
import { readJson } from '../validate.js';
import { requireSecretKey } from './backend-auth.js';

export function sessionRoutes(ctx: EmulatorContext) {
  return new Hono<AppEnv>().post('/v1/sessions', async (c) => {
    const auth = requireSecretKey(ctx, c, sessionAuthError);
    // SES-3: retries are safe without it, so the header is refused rather than silently ignored.
    if (c.req.header('idempotency-key') !== undefined) {
      throw new ApiError(
        'idempotency_key_not_accepted',
        'POST /v1/sessions does not accept an Idempotency-Key header; a retried mint simply yields another token.',
        'Idempotency-Key',
      );
    }
    const body = await readJson(c, CreateSessionRequest);
    return c.json(await mintSession(ctx.store, ctx.ids, ctx.clock.now(), auth, body), 201);
  });
}
