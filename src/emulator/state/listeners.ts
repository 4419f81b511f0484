import { toIso } from '../../contract/time.js';
import type { WebhookListenerEnded } from '../../contract/webhook-stream.js';
import type { ListenerRow } from '../../store/tables/webhooks.js';
import { signingSecretOf, webhookSecretHint } from '../../webhooks/signing-secret.js';
import type { Bus } from '../bus.js';
import type { StateContext } from '../domain/state-context.js';

type Cause = WebhookListenerEnded['cause'];

/** A listener attached before a reset or import, with the signing secret it printed. */
interface Held {
  row: ListenerRow;
  secret: string | null;
}

/**
 * CHOICE-30: a `webhook listen` outlives a state reset or import. The listeners are the run's,
 * not the state's: read before the tables are emptied, put back after (inside the same
 * transaction) when their app is still there and signs with the secret the listener printed;
 * an app re-seeded without a secret gets that one back. The others are told why (`ended`).
 */
export function holdListeners(ctx: StateContext): Held[] {
  return ctx.store.webhooks.listeners().map((row) => ({ row, secret: signingSecretOf(ctx.store, ctx.box, row.app_id) }));
}

/** Puts the held listeners back; returns the ends to announce once the transaction committed. */
export function reattachListeners(ctx: StateContext, held: Held[], cause: Cause): WebhookListenerEnded[] {
  const ended: WebhookListenerEnded[] = [];
  ctx.store.webhooks.clearListeners();
  for (const { row, secret } of held) {
    const app = ctx.store.apps.get(row.app_id);
    const now = signingSecretOf(ctx.store, ctx.box, row.app_id);
    if (app && now === null && secret !== null) restoreSecret(ctx, row.app_id, secret);
    const reason = !app ? 'app_removed' : now !== null && now !== secret ? 'secret_changed' : null;
    if (reason)
      ended.push({ object: 'listener.ended', time: toIso(ctx.clock.now()), listener_id: row.id, app_id: row.app_id, reason, cause });
    else ctx.store.webhooks.insertListener(row);
  }
  return ended;
}

export function announceEnded(ctx: { bus: Bus }, ended: WebhookListenerEnded[]): void {
  for (const event of ended) ctx.bus.emit('listener-ended', event);
}

function restoreSecret(ctx: StateContext, appId: string, secret: string): void {
  const app = ctx.store.apps.get(appId)!;
  ctx.store.apps.updateSettings({
    id: app.id,
    webhook_url: app.webhook_url,
    webhook_secret_sealed: ctx.box.seal(secret),
    webhook_secret_hint: webhookSecretHint(secret),
    results_delivery_enabled: app.results_delivery_enabled,
    now: ctx.clock.now(),
  });
}
