import type { App } from '../../../contract/apps.js';
import type { WebhookListener } from '../../../contract/webhooks.js';
import { table } from '../../output.js';

/** The app; with `listener` (app show), where a running `webhook listen` forwards its deliveries. */
export function renderApp(app: App & { listener?: WebhookListener | null }): string {
  const rows: Array<[string, string]> = [
    ['id', app.id],
    ['name', app.name],
    ['account', app.account_id],
    ['bundle_id', app.bundle_id],
    ['team_id', app.team_id],
    ['webhook_url', app.webhook_url ?? '(none: scans are recorded and billed, nothing is delivered)'],
    ['webhook secret', app.webhook_secret_hint ?? '(not issued yet)'],
    ...(app.listener === undefined ? [] : [['webhook listen', listenerText(app.listener)] as [string, string]]),
    ['results delivery', app.results_delivery_enabled ? 'on' : 'off'],
    ['daily session quota', String(app.daily_session_quota)],
    ['billing profile', app.billing_profile ? 'yes' : 'no'],
    ['terms accepted', app.terms_accepted ? 'yes' : 'no'],
  ];
  if (app.webhook_secret) rows.push(['NEW signing secret', `${app.webhook_secret}  (shown once: store it now)`]);
  return table(rows);
}

function listenerText(listener: WebhookListener | null): string {
  if (!listener) return '(none forwarding)';
  const only = listener.events ? ` (only ${listener.events.join(', ')}; the rest go to webhook_url)` : ' (instead of webhook_url)';
  return `forwarding to ${listener.forward_url} since ${listener.created_at}${only}, ${listener.id}`;
}
