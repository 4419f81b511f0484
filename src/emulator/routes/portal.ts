import { setCookie } from 'hono/cookie';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import { updateAppSettings } from '../domain/apps.js';
import { PORTAL_COOKIE, PORTAL_COOKIE_OPTIONS, startPortalSession } from '../domain/portal-sessions.js';
import { implement } from '../http/implement.js';

/** The portal's side (CHOICE-6): PATCH /v1/apps/{app_id} behind the portal cookie, and the login that issues it. */
export const portalRoutes = [
  // APP-1, APP-2: the app of the logged-in account only.
  implement(OPS.updateApp)(({ ctx, app, body }) => ({
    status: 200,
    body: updateAppSettings(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), app, body),
  })),
  implement(OPS.portalLogin)(({ ctx, c, body: { account_id } }) => {
    const { cookie, expiresAt } = startPortalSession(ctx, account_id);
    setCookie(c, PORTAL_COOKIE, cookie, PORTAL_COOKIE_OPTIONS);
    return { status: 200, body: { object: 'portal_session', account_id, expires_at: toIso(expiresAt) } };
  }),
] as const;
