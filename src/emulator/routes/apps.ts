import { OPS } from '../../contract/operations/index.js';
import { appView } from '../domain/apps.js';
import { implement } from '../http/implement.js';
import { fixtureKeys } from '../seed.js';

/** The apps as the portal shows them (CHOICE-8): list, one, daily quota, the signing secret's reveal. */
export const appRoutes = [
  implement(OPS.listApps)(({ ctx }) => ({ status: 200, body: { object: 'list', data: ctx.store.apps.all().map((a) => appView(a)) } })),
  implement(OPS.getApp)(({ app }) => ({ status: 200, body: appView(app) })),
  implement(OPS.setQuota)(({ ctx, app, body }) => {
    ctx.store.apps.setQuota(app.id, body.daily_session_quota, ctx.clock.now());
    return { status: 200, body: appView(ctx.store.apps.get(app.id)!) };
  }),
  // The emulator's stand-in for the portal's "reveal": the developer's own tool on loopback.
  implement(OPS.revealWebhookSecret)(({ ctx, app }) => ({
    status: 200,
    body: {
      object: 'webhook_secret',
      app_id: app.id,
      webhook_secret: app.webhook_secret_sealed ? ctx.box.open(app.webhook_secret_sealed) : null,
    },
  })),
  implement(OPS.getFixtureKeys)(({ ctx, app }) => {
    const { file, test, live } = fixtureKeys(ctx, app.id);
    return { status: 200, body: { object: 'fixture_keys', app_id: app.id, fixtures_path: file, test, live } };
  }),
] as const;
