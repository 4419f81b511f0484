import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import type { DeliveryStreamEvent } from '../../contract/webhooks.js';
import { effectiveWebhookUrl, resendEvent, ResendError } from '../../webhooks/outbox.js';
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
  implement(OPS.getWebhookDelivery)(({ ctx, delivery }) => ({ status: 200, body: deliveryDetail(ctx.store, ctx.box, emulatorUserAgent(ctx.config.version), delivery) })),
  // A new delivery of the same event: same id, same signed bytes, due now.
  implement(OPS.resendWebhookEvent)(({ ctx, params }) => {
    try {
      const id = resendEvent(ctx.store, ctx.ids, ctx.clock.now(), params.event_id);
      return { status: 201, body: deliveryView(ctx.store.webhooks.deliveryById(id)!) };
    } catch (error) {
      if (!(error instanceof ResendError)) throw error;
      const code = error.reason === 'no_event' ? 'resource_missing' : error.reason === 'redacted' ? 'event_deleted' : 'webhook_url_missing';
      throw new ApiError(code, error.message, error.reason === 'no_event' ? 'event_id' : undefined);
    }
  }),
  implement(OPS.listWebhookListeners)(({ ctx }) => ({
    status: 200,
    body: { object: 'list', data: ctx.store.webhooks.listeners().map(listenerView) },
  })),
  // The emulator's stand-in for the portal's reveal: issues the app's whsec_ if it has none (APP-2's path).
  implement(OPS.revealWebhookSigningSecret)(({ ctx, body: { app_id } }) => {
    requireApp(ctx, app_id);
    return { status: 200, body: { object: 'webhook_secret', app_id, webhook_secret: ensureSigningSecret(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), app_id) } };
  }),
  implement(OPS.streamWebhookDeliveries)(({ ctx, c, query }) => {
    const app = requireApp(ctx, query.app_id);
    // `scanctl webhook listen --forward URL`: while this stream is open, URL is the app's effective webhook URL.
    const listener = query.forward ? { id: ctx.ids.id('lsn'), app_id: app.id, forward_url: query.forward, created_at: ctx.clock.now() } : null;
    if (listener) {
      ensureSigningSecret(ctx.store, ctx.ids, ctx.box, ctx.clock.now(), app.id);
      ctx.store.webhooks.insertListener(listener);
    }
    return sseResponse(c, (channel) => {
      const onDelivery = (event: DeliveryStreamEvent) => {
        if (event.app_id === app.id) channel.send('delivery', event);
      };
      ctx.bus.on('delivery', onDelivery);
      channel.send('ready', {
        object: 'webhook_stream',
        app_id: app.id,
        listener: listener ? listenerView(listener) : null,
        effective_url: effectiveWebhookUrl(ctx.store, app.id),
      });
      return () => {
        ctx.bus.off('delivery', onDelivery);
        try {
          if (listener) ctx.store.webhooks.deleteListener(listener.id);
        } catch {
          // The database already closed with the server: listeners are cleared at the next start anyway.
        }
      };
    });
  }),
];
