import type { AppResponse } from '../../../contract/apps.js';
import { table } from '../../output.js';

export function renderApp(app: AppResponse): string {
  const rows: Array<[string, string]> = [
    ['id', app.id],
    ['name', app.name],
    ['account', app.account_id],
    ['bundle_id', app.bundle_id],
    ['team_id', app.team_id],
    ['webhook_url', app.webhook_url ?? '(none: scans are recorded and billed, nothing is delivered)'],
    ['webhook secret', app.webhook_secret_hint ?? '(not issued yet)'],
    ['results delivery', app.results_delivery_enabled ? 'on' : 'off'],
    ['daily session quota', String(app.daily_session_quota)],
    ['billing profile', app.billing_profile ? 'yes' : 'no'],
    ['terms accepted', app.terms_accepted ? 'yes' : 'no'],
  ];
  if (app.webhook_secret) rows.push(['NEW signing secret', `${app.webhook_secret}  (shown once: store it now)`]);
  return table(rows);
}
