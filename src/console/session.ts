import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from '../contract/errors.js';
import type { ConsoleContext } from './context.js';
import { PORTAL_COOKIE, portalSessionOf } from '../emulator/domain/portal-sessions.js';
import type { ConsoleEnv } from './env.js';

/** Paths that need no sign-in: signing in and out, and the static files. */
const PUBLIC = /^\/(sign-in|sign-out|console\/)/;

/**
 * Every console page needs the portal's session cookie (the same one PATCH /v1/apps takes): a
 * page without one redirects to the sign-in page, an action without one is refused.
 */
export function requireSignIn(ctx: ConsoleContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (PUBLIC.test(c.req.path)) return next();
    const cookie = getCookie(c, PORTAL_COOKIE);
    const session = portalSessionOf(ctx, cookie);
    if (!session || !cookie) {
      if (c.req.method === 'GET' || c.req.method === 'HEAD') {
        const next = c.req.path === '/' ? '' : `?next=${encodeURIComponent(c.req.path + new URL(c.req.url).search)}`;
        return c.redirect(`/sign-in${next}`, 303);
      }
      throw new ApiError('portal_login_required', 'Sign in to the console first: your portal session ended or was never started.');
    }
    const apps = ctx.store.apps.all().filter((a) => a.account_id === session.account_id);
    c.set('developer', { accountId: session.account_id, cookie, apps });
    const wanted = c.req.query('app');
    const app = apps.find((a) => a.id === wanted) ?? apps[0];
    if (!app) throw new ApiError('resource_missing', `The account ${session.account_id} has no app.`);
    if (wanted !== undefined && app.id !== wanted) {
      throw new ApiError('resource_missing', `No app ${wanted.slice(0, 100)} in this portal account.`, 'app_id');
    }
    c.set('app', app);
    return next();
  };
}

/**
 * A form post must come from a page of this console: its Origin (or, without one, its
 * Sec-Fetch-Site) must say so. A post from another site changes nothing, even when the browser
 * would send the cookie (SameSite=Strict already stops most; this stops the rest).
 */
export function sameOriginPosts(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    if (!isSameOrigin(c)) {
      throw new ApiError(
        'origin_not_allowed',
        'This form post did not come from a page of the console (its Origin or Sec-Fetch-Site says another site): nothing was changed.',
      );
    }
    return next();
  };
}

function isSameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if (origin === undefined && site === undefined) return false;
  if (origin !== undefined && origin !== new URL(c.req.url).origin) return false;
  if (site !== undefined && site !== 'same-origin') return false;
  return true;
}
