import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError, type ErrorCode } from '../../contract/errors.js';
import type { Operation, Security } from '../../contract/operation.js';
import type { RateLimiter } from '../domain/rate-limit.js';
import type { StateContext } from '../domain/state-context.js';
import type { AppEnv } from './app-env.js';
import { authenticateSessionToken, type DeviceAuth } from '../domain/device.js';
import { authenticateSecretKey, refusalCode, type SecretKeyAuth } from '../domain/keys.js';
import { PORTAL_COOKIE, portalSessionOf } from '../domain/portal-sessions.js';

/** What authentication reads: the state, and the rate limiter a secret key's calls count against. */
type SecurityContext = StateContext & { rateLimiter: RateLimiter };

export type SecretKeyCaller = Extract<SecretKeyAuth, { ok: true }>;
export interface PortalCaller {
  accountId: string;
}

/** What authentication yields for each kind of security. */
export interface Callers {
  secretKey: SecretKeyCaller;
  sessionToken: DeviceAuth;
  portalCookie: PortalCaller;
  none: undefined;
}
export type CallerOf<O extends Operation> = Callers[O['security']];

/** Authenticates a request as the operation's security asks; refusals are the declared error bodies. */
export function authenticate(ctx: SecurityContext, c: Context<AppEnv>, op: Operation): Callers[Security] {
  switch (op.security) {
    case 'secretKey':
      return secretKeyCaller(ctx, c, op);
    case 'sessionToken':
      return sessionTokenCaller(ctx, c);
    case 'portalCookie':
      return portalCaller(ctx, c, op);
    case 'none':
      return undefined;
  }
}

/**
 * The backend routes: a usable secret key. A refusal is answered with its own code when the
 * operation declares it (POST /v1/sessions: AUTH-2, AUTH-5..7), else 401 invalid_api_key (AUTH-4:
 * DELETE /v1/results lists 401 as its only failure). The caller is named in the request log by the
 * key's display form only; then the per-key rate limit applies (SES-10, CHOICE-2).
 */
function secretKeyCaller(ctx: SecurityContext, c: Context<AppEnv>, op: Operation): SecretKeyCaller {
  const now = ctx.clock.now();
  const auth = authenticateSecretKey(ctx.store, now, c.req.header('authorization'));
  if (!auth.ok) {
    const own = refusalCode(auth.reason);
    const code: ErrorCode = op.errors?.includes(own) ? own : 'invalid_api_key';
    throw new ApiError(code, auth.message);
  }
  c.set('logKey', auth.key.display);
  c.set('logEnv', auth.env);
  c.set('logAppId', auth.app.id);
  const waitMs = ctx.rateLimiter.hit(auth.key.id, now);
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new ApiError(
      'rate_limited',
      `Too many requests: the limit is ${ctx.rateLimiter.limitPerSecond} per second per key. Retry after ${seconds} s.`,
      undefined,
      { headers: { 'Retry-After': String(seconds) } },
    );
  }
  return auth;
}

/** The device routes: a session token only (AUTH-13), valid on the emulator's clock (SES-5). */
function sessionTokenCaller(ctx: SecurityContext, c: Context<AppEnv>): DeviceAuth {
  const auth = authenticateSessionToken(ctx.store, ctx.clock.now(), c.req.header('authorization'));
  c.set('logKey', auth.display);
  c.set('logEnv', auth.session.env);
  c.set('logAppId', auth.app.id);
  return auth;
}

/** APP-1: the portal's routes take its session cookie, never a bearer key. */
function portalCaller(ctx: SecurityContext, c: Context<AppEnv>, op: Operation): PortalCaller {
  if (c.req.header('authorization') !== undefined) {
    throw new ApiError(
      'bearer_not_accepted',
      `${op.method.toUpperCase()} ${op.path} is a portal route: it takes the portal session cookie, not an API key.`,
    );
  }
  const session = portalSessionOf(ctx, getCookie(c, PORTAL_COOKIE));
  if (!session) {
    throw new ApiError('portal_login_required', 'Log in to the portal first (scanctl app update does it for you).');
  }
  return { accountId: session.account_id };
}
