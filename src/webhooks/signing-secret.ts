import type { Store } from '../store/index.js';
import type { SecretBox } from '../util/crypto.js';
import type { Ids } from '../util/ids.js';

/** The non-secret form of a whsec_ secret shown on the app (webhook_secret_hint). */
export function webhookSecretHint(secret: string): string {
  return `whsec_...${secret.slice(-4)}`;
}

/** APP-2: a new whsec_ signing secret, sealed for the database, with its hint. */
export function issueSigningSecret(ids: Ids, box: SecretBox): { secret: string; sealed: string; hint: string } {
  const secret = ids.secret('whsec_');
  return { secret, sealed: box.seal(secret), hint: webhookSecretHint(secret) };
}

/** The app's whsec_ signing secret in clear, or null when it has none. */
export function signingSecretOf(store: Store, box: SecretBox, appId: string): string | null {
  const sealed = store.apps.get(appId)?.webhook_secret_sealed;
  return sealed ? box.open(sealed) : null;
}

/**
 * The app's whsec_ signing secret for `scanctl webhook listen`, issuing one the way setting a
 * webhook_url does (APP-2) when the app has none yet; an existing secret is never replaced.
 */
export function ensureSigningSecret(store: Store, ids: Ids, box: SecretBox, now: number, appId: string): string {
  const app = store.apps.get(appId)!;
  if (app.webhook_secret_sealed) return box.open(app.webhook_secret_sealed);
  const issued = issueSigningSecret(ids, box);
  store.apps.updateSettings({
    id: app.id,
    webhook_url: app.webhook_url,
    webhook_secret_sealed: issued.sealed,
    webhook_secret_hint: issued.hint,
    results_delivery_enabled: app.results_delivery_enabled,
    now,
  });
  return issued.secret;
}
