import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { UpdateAppRequest } from '../../contract/apps.js';
import { ApiError } from '../../contract/errors.js';
import { sha256Hex } from '../../util/crypto.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { updateAppSettings } from '../domain/apps.js';
import { readJson } from '../validate.js';

export const PORTAL_COOKIE = 'scanctl_portal';

/** APP-1: PATCH /v1/apps/{app_id} belongs to the portal and takes its cookie, never a bearer key. */
export function appRoutes(ctx: EmulatorContext) {
  return new Hono<AppEnv>().patch('/v1/apps/:app_id', async (c) => {
    if (c.req.header('authorization') !== undefined) {
      throw new ApiError(
        'bearer_not_accepted',
        'PATCH /v1/apps/{app_id} is a portal route: it takes the portal session cookie, not an API key.',
      );
    }
    const cookie = getCookie(c, PORTAL_COOKIE);
    const session = cookie ? ctx.store.portalSessions.byHash(sha256Hex(cookie)) : undefined;
    const now = ctx.clock.now();
    if (!session || session.expires_at <= now) {
      throw new ApiError('portal_login_required', 'Log in to the portal first (scanctl app update does it for you).');
    }
    const app = ctx.store.apps.get(c.req.param('app_id'));
    // Another account's app is reported as missing, so app ids cannot be probed.
    if (!app || app.account_id !== session.account_id) {
      throw new ApiError('resource_missing', `No app ${c.req.param('app_id').slice(0, 100)} in this portal account.`, 'app_id');
    }
    const patch = await readJson(c, UpdateAppRequest);
    return c.json(updateAppSettings(ctx.store, ctx.ids, ctx.box, now, app, patch), 200);
  });
}
