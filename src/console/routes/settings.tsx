/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { UpdateAppRequest } from '../../contract/apps.js';
import { QuotaRequest } from '../../contract/control.js';
import type { ConsoleContext } from '../context.js';
import { updateAppSettings } from '../../emulator/domain/apps.js';
import { parseWith } from '../../contract/request-errors.js';
import type { ConsoleEnv } from '../env.js';
import { attempt, numberField, readForm } from '../form.js';
import { chromeOf } from '../pages/chrome.js';
import { SettingsPage } from '../pages/settings.js';
import { redirectDone, renderPage } from '../render.js';

/** Settings: PATCH /v1/apps/{app_id}'s fields and the daily quota, through the same schemas and domain function. */
export function settingsRoutes(ctx: ConsoleContext) {
  return new Hono<ConsoleEnv>()
    .get('/settings', (c) => {
      const chrome = chromeOf(ctx, c);
      const { app } = chrome;
      const values = {
        webhook_url: app.webhook_url ?? '',
        results_delivery_enabled: app.results_delivery_enabled === 1,
        daily_session_quota: String(app.daily_session_quota),
      };
      return renderPage(c, <SettingsPage chrome={chrome} values={values} saved={c.req.query('done') === 'saved'} />);
    })
    .post('/settings', async (c) => {
      const form = await readForm(c);
      const app = c.get('app');
      const values = {
        webhook_url: form.webhook_url ?? '',
        results_delivery_enabled: form.results_delivery_enabled !== undefined,
        daily_session_quota: form.daily_session_quota ?? '',
      };
      // Both bodies are checked before anything is written: a refusal changes nothing.
      const result = await attempt('settings', () => {
        const patch = parseWith(UpdateAppRequest, {
          webhook_url: values.webhook_url === '' ? null : values.webhook_url,
          results_delivery_enabled: values.results_delivery_enabled,
        });
        const quota = parseWith(QuotaRequest, { daily_session_quota: numberField(form.daily_session_quota) });
        return ctx.store.db.transaction(() => {
          const now = ctx.clock.now();
          const view = updateAppSettings(ctx.store, ctx.ids, ctx.box, now, app, patch);
          ctx.store.apps.setQuota(app.id, quota.daily_session_quota, now);
          return view;
        })();
      });
      if (!result.ok)
        return renderPage(
          c,
          <SettingsPage chrome={chromeOf(ctx, c)} values={values} failure={result.failure} saved={false} />,
          result.failure.status,
        );
      if (!result.value.webhook_secret) return redirectDone(c, '/settings', 'saved');
      // APP-2: the signing secret was issued by this save: shown in this answer only, never stored in a page again.
      return renderPage(c, <SettingsPage chrome={chromeOf(ctx, c)} values={values} issuedSecret={result.value.webhook_secret} saved />);
    });
}
