/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import { ApiError } from '../contract/errors.js';
import { DeliveryStatus } from '../contract/webhooks.js';
import type { WebhookStreamEvent } from '../contract/webhook-stream.js';
import type { ConsoleContext } from './context.js';
import { sseResponse } from '../emulator/http/sse.js';
import { emulatorUserAgent } from '../webhooks/headers.js';
import { deliveryDetail, duplicateSendCount } from '../webhooks/views.js';
import type { ConsoleEnv } from './env.js';
import { chromeOf } from './pages/chrome.js';
import { DeliveryRow, DeliveryTotal, rowId } from './pages/deliveries.js';
import { DeliveryLive } from './pages/delivery.js';
import { ClockText } from './pages/layout.js';
import { htmlOf } from './render.js';

/** One change to a page: replace the element with this id, or (when it is not there) put it first in `into`. */
export interface Patch {
  id: string;
  html: string;
  into?: string;
}

/** At most this many deliveries re-rendered per batch: a burst of thousands must not flood a browser tab. */
const MAX_PER_BATCH = 50;

/**
 * The live stream of the Deliveries pages (`patch` events of server-rendered, escaped HTML; the
 * console's one script swaps them in). Changes are batched: everything announced in one turn of
 * the event loop goes out as one event.
 */
export function deliveryStream(ctx: ConsoleContext, c: Context<ConsoleEnv>): Response {
  const chrome = chromeOf(ctx, c);
  const only = c.req.query('delivery');
  // One delivery's page follows that delivery, whichever of the account's apps it belongs to.
  let appId = chrome.app.id;
  if (only !== undefined) {
    const row = ctx.store.webhooks.deliveryById(only);
    if (!row || !chrome.apps.some((a) => a.id === row.app_id))
      throw new ApiError('resource_missing', `No delivery ${only.slice(0, 100)}.`, 'delivery_id');
    appId = row.app_id;
  }
  // An unknown status filters nothing, as on the page itself.
  const status = DeliveryStatus.optional()
    .catch(undefined)
    .parse(c.req.query('status') || undefined);
  const insertNew = c.req.query('first') === '1' && !only;
  return sseResponse(c, ctx.streams, (channel) => {
    const changed = new Set<string>();
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      const ids = [...changed].slice(-MAX_PER_BATCH);
      changed.clear();
      const now = ctx.clock.now();
      const patches: Patch[] = [{ id: 'emulator-clock', html: htmlOf(<ClockText now={now} />) }];
      if (!only) {
        const total = ctx.store.deliveryPages.count(appId, status);
        patches.push({ id: 'deliveries-total', html: htmlOf(<DeliveryTotal total={total} status={status} />) });
      }
      for (const id of ids) {
        if (only) {
          const row = ctx.store.webhooks.deliveryById(id);
          if (row)
            patches.push({
              id: 'delivery-live',
              html: htmlOf(
                <DeliveryLive detail={deliveryDetail(ctx.store, ctx.box, emulatorUserAgent(ctx.config.version), row)} now={now} />,
              ),
            });
          continue;
        }
        const row = ctx.store.deliveryPages.row(id);
        if (!row) continue;
        const html = htmlOf(<DeliveryRow row={row} chrome={{ ...chrome, now }} duplicateSends={duplicateSendCount(ctx.store, id)} />);
        const fits = insertNew && (status === undefined || row.status === status);
        patches.push(fits ? { id: rowId(id), html, into: 'deliveries-rows' } : { id: rowId(id), html });
      }
      channel.send('patch', patches);
    };
    const onDelivery = (event: WebhookStreamEvent) => {
      if (event.app_id !== appId || (only && event.delivery_id !== only)) return;
      changed.delete(event.delivery_id);
      changed.add(event.delivery_id);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    };
    ctx.bus.on('delivery', onDelivery);
    channel.send('ready', { app_id: appId });
    return () => ctx.bus.off('delivery', onDelivery);
  });
}
