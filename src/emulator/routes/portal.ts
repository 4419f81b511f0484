import { setCookie } from 'hono/cookie';
import { CHOICES } from '../../contract/choices.js';
import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import { sha256Hex } from '../../util/crypto.js';
import { updateAppSettings } from '../domain/apps.js';
import { implement } from '../http/implement.js';
import { PORTAL_COOKIE } from '../http/security.js';

/** The portal's side (CHOICE-6): PATCH /v1/apps/{app_id} behind the portal cookie, and the login that issues it. */
export const portalRoutes = [
  // APP-1, APP-2: the app of the logged-in account only.
  implement(OPS.updateApp)(({ ctx, app, body }) => ({
    status: 200,
    body: updateAppSettings(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), app, body),
  })),
  implement(OPS.portalLogin)(({ ctx, c, body: { account_id } }) => {
    if (!ctx.store.accounts.get(account_id)) throw new ApiError('resource_missing', `No account ${account_id.slice(0, 100)}.`, 'account_id');
    const cookie = ctx.ids.secret('psess_');
    const now = ctx.clock.now();
    const expiresAt = now + CHOICES.portalSessionLifetimeMs;
    ctx.store.portalSessions.insert({ hash: sha256Hex(cookie), account_id, created_at: now, expires_at: expiresAt });
    setCookie(c, PORTAL_COOKIE, cookie, { httpOnly: true, path: '/', sameSite: 'Strict' });
    return { status: 200, body: { object: 'portal_session', account_id, expires_at: toIso(expiresAt) } };
  }),
];
