import { Option, type Command } from 'commander';
import type { UpdateAppRequest } from '../../../contract/apps.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { QuotaRequest } from '../../../contract/control.js';
import { fieldOf } from '../../parse-contract-options.js';
import { webhookUrl } from '../../parse-options.js';
import { renderApp } from './view.js';

/** `scanctl app update`: every flag is checked before the first request, so an update is never partial. */
export function register(group: Command): void {
  group
    .command('update')
    .description('change webhook_url, results delivery or the daily quota (logs in to the portal, then PATCH /v1/apps/{app_id})')
    .addOption(new Option('--webhook-url <url>', 'where deliveries go; "none" clears it').argParser(webhookUrl))
    .addOption(new Option('--results-delivery <state>', 'store results and send scan.results_available').choices(['on', 'off']))
    .addOption(
      new Option('--quota <n>', 'daily session quota (emulator control plane)').argParser(
        fieldOf(QuotaRequest.unwrap().shape.daily_session_quota),
      ),
    )
    .action(async (flags: { webhookUrl?: string; resultsDelivery?: 'on' | 'off'; quota?: number }, command: Command) => {
      const ctx = contextOf(command);
      if (flags.webhookUrl === undefined && flags.resultsDelivery === undefined && flags.quota === undefined) {
        throw new UserError('nothing to update: pass --webhook-url, --results-delivery or --quota');
      }
      const control = ctx.control();
      const appId = await ctx.appId();
      let app = await control.app(appId);
      const patch: UpdateAppRequest = {};
      if (flags.webhookUrl !== undefined) patch.webhook_url = flags.webhookUrl === 'none' ? null : flags.webhookUrl;
      if (flags.resultsDelivery !== undefined) patch.results_delivery_enabled = flags.resultsDelivery === 'on';
      if (Object.keys(patch).length > 0) {
        const cookie = await control.portalLogin(app.account_id);
        app = await control.updateApp(appId, patch, cookie);
      }
      if (flags.quota !== undefined) {
        const secret = app.webhook_secret;
        app = await control.setQuota(appId, flags.quota);
        if (secret) app = { ...app, webhook_secret: secret };
      }
      ctx.print(app, renderApp);
    });
}
