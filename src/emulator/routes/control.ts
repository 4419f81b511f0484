import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { parseDuration } from '../../clock/duration.js';
import { CHOICES } from '../../contract/choices.js';
import {
  AccountView,
  ClockAdvanceRequest,
  ClockSetRequest,
  CONTROL_PREFIX,
  KeyActionRequest,
  KeyIssueRequest,
  PortalLoginRequest,
  QuotaRequest,
  type ClockResponse,
  type InfoResponse,
  type KeyView,
} from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import { toIso } from '../../contract/time.js';
import type { AccountRow } from '../../store/tables/accounts.js';
import type { ApiKeyRow } from '../../store/tables/api-keys.js';
import { sha256Hex } from '../../util/crypto.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { appView } from '../domain/apps.js';
import { changeKeyState, currentSecretKey, issueKeyPair, keyState, rotateSecretKey } from '../domain/keys.js';
import { readJson } from '../validate.js';
import { PORTAL_COOKIE } from './apps.js';

/** The latest time the clock may show: every wire timestamp stays a four-digit-year ISO date. */
const LATEST_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function keyView(row: ApiKeyRow, now: number, secret?: string): KeyView {
  const view: KeyView = {
    id: row.id,
    object: 'api_key',
    env: row.env,
    kind: row.kind,
    display: row.display,
    state: keyState(row, now),
    grace_until: row.grace_until === null ? null : toIso(row.grace_until),
    replaced_by: row.replaced_by,
    created_at: toIso(row.created_at),
  };
  if (secret) view.secret = secret;
  return view;
}

function accountView(row: AccountRow): AccountView {
  return { id: row.id, object: 'account', suspended: row.suspended === 1, suspended_at: row.suspended_at === null ? null : toIso(row.suspended_at) };
}

/** The portal's side and the clock (CHOICE-8): what the spec leaves to the portal, made reachable. */
export function controlRoutes(ctx: EmulatorContext) {
  const { store } = ctx;
  const app = (id: string) => {
    const row = store.apps.get(id);
    if (!row) throw new ApiError('resource_missing', `No app ${id.slice(0, 100)}.`, 'app_id');
    return row;
  };
  const clockView = (played?: number): ClockResponse => ({
    object: 'clock',
    now: toIso(ctx.clock.now()),
    offset_ms: ctx.clock.offsetMs,
    ...(played === undefined ? {} : { played }),
  });

  return new Hono<AppEnv>()
    .basePath(CONTROL_PREFIX)
    .get('/info', (c) => {
      const info: InfoResponse = {
        object: 'emulator',
        version: ctx.config.version,
        interface_version: '1.0.0',
        now: toIso(ctx.clock.now()),
        default_app_id: ctx.config.defaultAppId,
        fixtures_path: ctx.config.fixturesPath,
        rate_limit_per_second: ctx.rateLimiter.limitPerSecond,
        apps: store.apps.all().map((a) => a.id),
      };
      return c.json(info);
    })
    .get('/clock', (c) => c.json(clockView()))
    .post('/clock/advance', async (c) => {
      const { duration } = await readJson(c, ClockAdvanceRequest);
      const ms = parseDuration(duration);
      if (ms === null) throw new ApiError('parameter_invalid', `Invalid duration "${duration}": use forms like 90s, 15m, 24h, 3d (at most 100 years).`, 'duration');
      if (ctx.clock.now() + ms > LATEST_CLOCK_MS) throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'duration');
      const { played } = await ctx.scheduler.advanceBy(ms);
      return c.json(clockView(played));
    })
    .post('/clock/set', async (c) => {
      const { time } = await readJson(c, ClockSetRequest);
      const target = Date.parse(time);
      if (!(target <= LATEST_CLOCK_MS)) throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'time');
      if (target < ctx.clock.now()) {
        throw new ApiError('clock_backwards', `The clock only moves forward: it is already ${toIso(ctx.clock.now())}.`, 'time');
      }
      const { played } = await ctx.scheduler.advanceTo(target);
      return c.json(clockView(played));
    })
    .get('/apps', (c) => c.json({ object: 'list', data: store.apps.all().map((a) => appView(a)) }))
    .get('/apps/:app_id', (c) => c.json(appView(app(c.req.param('app_id')))))
    .post('/apps/:app_id/quota', async (c) => {
      const row = app(c.req.param('app_id'));
      const { daily_session_quota } = await readJson(c, QuotaRequest);
      store.apps.setQuota(row.id, daily_session_quota, ctx.clock.now());
      return c.json(appView(store.apps.get(row.id)!));
    })
    .get('/apps/:app_id/webhook-secret', (c) => {
      // The emulator's stand-in for the portal's "reveal": the developer's own tool on loopback.
      const row = app(c.req.param('app_id'));
      const secret = row.webhook_secret_sealed ? ctx.box.open(row.webhook_secret_sealed) : null;
      return c.json({ object: 'webhook_secret', app_id: row.id, webhook_secret: secret });
    })
    .get('/apps/:app_id/keys', (c) => {
      const row = app(c.req.param('app_id'));
      const now = ctx.clock.now();
      return c.json({ object: 'list', data: store.keys.forApp(row.id).map((k) => keyView(k, now)) });
    })
    .post('/apps/:app_id/keys', async (c) => {
      const row = app(c.req.param('app_id'));
      const { env } = await readJson(c, KeyIssueRequest);
      const now = ctx.clock.now();
      const pair = issueKeyPair(store, ctx.ids, now, row, env);
      return c.json(
        {
          object: 'list',
          data: [
            keyView(store.keys.byId(pair.secret.id)!, now, pair.secret.key),
            keyView(store.keys.byId(pair.publishable.id)!, now, pair.publishable.key),
          ],
        },
        201,
      );
    })
    .post('/apps/:app_id/keys/rotate', async (c) => {
      const row = app(c.req.param('app_id'));
      const { env } = await readJson(c, KeyIssueRequest);
      const now = ctx.clock.now();
      const rotated = rotateSecretKey(store, ctx.ids, now, row, env);
      return c.json(
        {
          object: 'list',
          data: [keyView(store.keys.byId(rotated.secret.id)!, now, rotated.secret.key), keyView(store.keys.byId(rotated.previous.id)!, now)],
        },
        201,
      );
    })
    .post('/apps/:app_id/keys/:action{revoke|suspend|reinstate}', async (c) => {
      const row = app(c.req.param('app_id'));
      const action = c.req.param('action') as 'revoke' | 'suspend' | 'reinstate';
      const body = await readJson(c, KeyActionRequest);
      const now = ctx.clock.now();
      let key: ApiKeyRow | undefined;
      if (body.key_id) {
        key = store.keys.byId(body.key_id);
        if (!key || key.app_id !== row.id) throw new ApiError('resource_missing', `No key ${body.key_id.slice(0, 100)} on ${row.id}.`, 'key_id');
      } else {
        const env = body.env ?? 'test';
        key = currentSecretKey(store, now, row.id, env);
        if (!key) throw new ApiError('resource_missing', `${row.id} has no current ${env} secret key.`, 'env');
      }
      return c.json(keyView(changeKeyState(store, now, key, action), now));
    })
    .get('/accounts', (c) => c.json({ object: 'list', data: store.accounts.all().map(accountView) }))
    .post('/accounts/:account_id/:action{suspend|reinstate}', (c) => {
      const id = c.req.param('account_id');
      const suspend = c.req.param('action') === 'suspend';
      if (!store.accounts.setSuspended(id, suspend, ctx.clock.now())) {
        throw new ApiError('resource_missing', `No account ${id.slice(0, 100)}.`, 'account_id');
      }
      return c.json(accountView(store.accounts.get(id)!));
    })
    .post('/portal/login', async (c) => {
      const { account_id } = await readJson(c, PortalLoginRequest);
      if (!store.accounts.get(account_id)) throw new ApiError('resource_missing', `No account ${account_id.slice(0, 100)}.`, 'account_id');
      const cookie = ctx.ids.secret('psess_');
      const now = ctx.clock.now();
      store.portalSessions.insert({ hash: sha256Hex(cookie), account_id, created_at: now, expires_at: now + CHOICES.portalSessionLifetimeMs });
      setCookie(c, PORTAL_COOKIE, cookie, { httpOnly: true, path: '/', sameSite: 'Strict' });
      return c.json({ object: 'portal_session', account_id, expires_at: toIso(now + CHOICES.portalSessionLifetimeMs) });
    });
}
