import type { App, UpdateAppRequest } from '../../contract/apps.js';
import type { Store } from '../../store/index.js';
import type { AppRow } from '../../store/tables/apps.js';
import type { SecretBox } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';
import { issueSigningSecret } from '../../webhooks/signing-secret.js';
import { withdrawQueuedResults } from '../../webhooks/outbox.js';

export function appView(app: AppRow, issuedSecret?: string): App {
  const view: App = {
    id: app.id,
    object: 'app',
    account_id: app.account_id,
    name: app.name,
    bundle_id: app.bundle_id,
    team_id: app.team_id,
    webhook_url: app.webhook_url,
    webhook_secret_hint: app.webhook_secret_hint,
    results_delivery_enabled: app.results_delivery_enabled === 1,
    daily_session_quota: app.daily_session_quota,
    billing_profile: app.billing_profile === 1,
    terms_accepted: app.terms_accepted === 1,
  };
  if (issuedSecret) view.webhook_secret = issuedSecret;
  return view;
}

/**
 * APP-1, APP-2: sets webhook_url and results_delivery_enabled. The whsec_ signing secret is
 * issued once, the first time a webhook_url is set, and appears only in that answer.
 */
export function updateAppSettings(store: Store, ids: Ids, box: SecretBox, now: number, app: AppRow, patch: UpdateAppRequest): App {
  const webhookUrl = patch.webhook_url === undefined ? app.webhook_url : patch.webhook_url;
  let sealed = app.webhook_secret_sealed;
  let hint = app.webhook_secret_hint;
  let issued: string | undefined;
  if (webhookUrl && !sealed) ({ secret: issued, sealed, hint } = issueSigningSecret(ids, box));
  const resultsOn = patch.results_delivery_enabled === undefined ? app.results_delivery_enabled : patch.results_delivery_enabled ? 1 : 0;
  store.apps.updateSettings({
    id: app.id,
    webhook_url: webhookUrl,
    webhook_secret_sealed: sealed,
    webhook_secret_hint: hint,
    results_delivery_enabled: resultsOn,
    now,
  });
  // WH-3: switched off, nothing of a member's measurements leaves afterwards.
  if (app.results_delivery_enabled === 1 && resultsOn === 0) withdrawQueuedResults(store, app.id, now);
  return appView(store.apps.get(app.id)!, issued);
}
