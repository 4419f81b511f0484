import type { Fixtures } from '../fixture-file.js';
import type { Store } from '../../store/index.js';
import type { SecretBox } from '../../util/crypto.js';
import type { Ids } from '../../util/ids.js';
import { ensureFixtureKey } from './keys.js';
import { webhookSecretHint } from '../../webhooks/signing-secret.js';

/**
 * Loads fixtures as an upsert in one transaction: rows with the same ids take the fixture's
 * values; keys are ensured to exist and keep their state (a restart never revives a revoked key).
 */
export function applyFixtures(store: Store, ids: Ids, box: SecretBox, now: number, fixtures: Fixtures): void {
  store.db.transaction(() => {
    for (const account of fixtures.accounts) store.accounts.upsert(account, now);
    for (const app of fixtures.apps) {
      const existing = store.apps.get(app.id);
      const secret = app.webhook_secret;
      store.apps.upsert(
        {
          id: app.id,
          account_id: app.account_id,
          name: app.name,
          bundle_id: app.bundle_id,
          team_id: app.team_id,
          billing_profile: app.billing_profile ? 1 : 0,
          terms_accepted: app.terms_accepted ? 1 : 0,
          webhook_url: app.webhook_url,
          webhook_secret_sealed: secret ? box.seal(secret) : (existing?.webhook_secret_sealed ?? null),
          webhook_secret_hint: secret ? webhookSecretHint(secret) : (existing?.webhook_secret_hint ?? null),
          results_delivery_enabled: app.results_delivery_enabled ? 1 : 0,
          daily_session_quota: app.daily_session_quota,
        },
        now,
      );
      for (const env of ['test', 'live'] as const) {
        const pair = app.keys[env];
        if (!pair) continue;
        ensureFixtureKey(store, ids, now, app.id, env, 'secret', pair.secret);
        ensureFixtureKey(store, ids, now, app.id, env, 'publishable', pair.publishable);
      }
    }
  })();
}
