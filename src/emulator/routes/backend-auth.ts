import type { Context } from 'hono';
import { ApiError } from '../../contract/errors.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { authenticateSecretKey, type SecretKeyAuth } from '../domain/keys.js';

type Authenticated = Extract<SecretKeyAuth, { ok: true }>;
type Refused = Extract<SecretKeyAuth, { ok: false }>;

/**
 * The preamble of the two backend routes: a usable secret key (each route maps a refusal to its
 * own status, see sessionAuthError and deleteAuthError), the caller named in the request log by
 * the key's display form only, then the per-key rate limit.
 */
export function requireSecretKey(ctx: EmulatorContext, c: Context<AppEnv>, refuse: (failure: Refused) => ApiError): Authenticated {
  const now = ctx.clock.now();
  const auth = authenticateSecretKey(ctx.store, now, c.req.header('authorization'));
  if (!auth.ok) throw refuse(auth);
  c.set('logKey', auth.key.display);
  c.set('logEnv', auth.env);
  c.set('logAppId', auth.app.id);
  enforceRateLimit(ctx, auth.key.id, now);
  return auth;
}

/** SES-10, CHOICE-2: 429 rate_limited with Retry-After once a key passes the per-second limit. */
function enforceRateLimit(ctx: EmulatorContext, keyId: string, now: number): void {
  const waitMs = ctx.rateLimiter.hit(keyId, now);
  if (waitMs > 0) {
    throw new ApiError(
      'rate_limited',
      `Too many requests: the limit is ${ctx.rateLimiter.limitPerSecond} per second per key. Retry after ${Math.ceil(waitMs / 1000)} s.`,
      undefined,
      { headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
    );
  }
}
