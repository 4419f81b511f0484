import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import type { WebhookEventType } from '../../contract/webhooks.js';
import {
  parseEventList,
  type WebhookStreamEvent,
  type WebhookStreamReady,
  type WebhookListenerEnded,
  type WebhookListenerReplaced,
} from '../../contract/webhook-stream.js';
import type { ListenerRow } from '../../store/tables/webhooks.js';
import type { EmulatorContext } from '../context.js';
import { effectiveWebhookUrl } from '../../webhooks/outbox.js';
import { resendOrRefuse } from '../domain/resend.js';
import { emulatorUserAgent } from '../../webhooks/headers.js';
import { ensureSigningSecret } from '../../webhooks/signing-secret.js';
import { deliveryDetail, deliveryView, listenerView } from '../../webhooks/views.js';
import { implement } from '../http/implement.js';
import { requireApp } from '../http/loaders.js';
import { sseResponse } from '../http/sse.js';

/** The webhooks' control plane: deliveries, resend, listeners, the signing secret, the live stream. */
export const webhookRoutes = [
  implement(OPS.listWebhookDeliveries)(({ ctx, query }) => {
    if (query.app_id) requireApp(ctx, query.app_id);
    return { status: 200, body: { object: 'list', data: ctx.store.webhooks.deliveries(query).map(deliveryView) } };
  }),
  implement(OPS.getWebhookDelivery)(({ ctx, delivery }) => ({
    status: 200,
    body: deliveryDetail(ctx.store, ctx.box, emulatorUserAgent(ctx.config.version), delivery),
  })),
  // A new delivery of the same event: same id, same signed bytes, due now.
  implement(OPS.resendWebhookEvent)(({ ctx, params }) => ({
    status: 201,
    body: deliveryView(ctx.store.webhooks.deliveryById(resendOrRefuse(ctx, params.event_id))!),
  })),
  implement(OPS.listWebhookListeners)(({ ctx }) => ({
    status: 200,
    body: { object: 'list', data: ctx.store.webhooks.listeners().map(listenerView) },
  })),
  // The emulator's stand-in for the portal's reveal: issues the app's whsec_ if it has none (APP-2's path).
  implement(OPS.revealWebhookSigningSecret)(({ ctx, body: { app_id } }) => {
    requireApp(ctx, app_id);
    return {
      status: 200,
      body: { object: 'webhook_secret', app_id, webhook_secret: ensureSigningSecret(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), app_id) },
    };
  }),
  implement(OPS.streamWebhookDeliveries)(({ ctx, c, query }) => {
    const app = requireApp(ctx, query.app_id);
    const events = parseEventList(query.events);
    // `scanctl webhook listen --forward URL`: while this stream is open, URL is the app's effective webhook URL.
    const { listener, replaced } = query.forward ? attachListener(ctx, app.id, query.forward, events) : { listener: null, replaced: [] };
    return sseResponse(c, ctx.streams, (channel) => {
      let gone = false;
      const onDelivery = (event: WebhookStreamEvent) => {
        if (event.app_id === app.id && (events === null || events.includes(event.event_type))) channel.send('delivery', event);
      };
      // Told at once when another listener took the app over; this stream then ends.
      const onReplaced = (event: WebhookListenerReplaced) => {
        if (event.listener_id !== listener?.id) return;
        gone = true;
        channel.send('replaced', event);
        channel.close();
      };
      // A state reset or import that could not keep this listener (CHOICE-30).
      const onEnded = (event: WebhookListenerEnded) => {
        if (event.listener_id !== listener?.id) return;
        gone = true;
        channel.send('ended', event);
        channel.close();
      };
      ctx.bus.on('delivery', onDelivery);
      ctx.bus.on('listener-replaced', onReplaced);
      ctx.bus.on('listener-ended', onEnded);
      channel.send('ready', {
        object: 'webhook_stream',
        app_id: app.id,
        listener: listener ? listenerView(listener) : null,
        replaced: replaced.map(listenerView),
        effective_url: effectiveWebhookUrl(ctx.store, app.id),
        events,
        emulator_time: toIso(ctx.clock.now()),
      } satisfies WebhookStreamReady);
      return () => {
        ctx.bus.off('delivery', onDelivery);
        ctx.bus.off('listener-replaced', onReplaced);
        ctx.bus.off('listener-ended', onEnded);
        if (!listener || gone) return;
        try {
          ctx.store.webhooks.deleteListener(listener.id);
        } catch {
          // The database already closed with the server: listeners are cleared at the next start anyway.
        }
        ctx.bus.emit('listener-detached', listener.id);
      };
    });
  }),
] as const;

/** One listener per app: a new one replaces (and tells) the ones attached before it. */
function attachListener(
  ctx: EmulatorContext,
  appId: string,
  forwardUrl: string,
  events: WebhookEventType[] | null,
): { listener: ListenerRow; replaced: ListenerRow[] } {
  const listener: ListenerRow = {
    id: ctx.ids.id('lsn'),
    app_id: appId,
    forward_url: forwardUrl,
    events,
    created_at: ctx.clock.now(),
  };
  ensureSigningSecret(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), appId);
  const previous = ctx.store.db.transaction(() => {
    const rows = ctx.store.webhooks.listenersOf(appId);
    for (const row of rows) ctx.store.webhooks.deleteListener(row.id);
    ctx.store.webhooks.insertListener(listener);
    return rows;
  })();
  const time = toIso(ctx.clock.now());
  for (const row of previous) {
    ctx.bus.emit('listener-replaced', {
      object: 'listener.replaced',
      time,
      listener_id: row.id,
      app_id: appId,
      replaced_by: listenerView(listener),
    });
  }
  return { listener, replaced: previous };
}
