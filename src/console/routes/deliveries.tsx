/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { ApiError } from '../../contract/errors.js';
import { WebhookDeliveryListQuery } from '../../contract/webhooks.js';
import type { ConsoleContext } from '../context.js';
import { parseWith } from '../../contract/request-errors.js';
import { resendOrRefuse } from '../../emulator/domain/resend.js';
import type { DeliveryWithEvent } from '../../store/tables/webhooks.js';
import { emulatorUserAgent } from '../../webhooks/headers.js';
import { deliveryDetail, duplicateSendCount } from '../../webhooks/views.js';
import type { ConsoleEnv } from '../env.js';
import { attempt, failureOf, type Failure } from '../form.js';
import { deliveryStream } from '../live.js';
import { DeliveriesPage, DELIVERY_PAGE_SIZE } from '../pages/deliveries.js';
import { DeliveryPage } from '../pages/delivery.js';
import { chromeOf } from '../pages/chrome.js';
import { pageHref, redirectDone, renderPage } from '../render.js';

const StatusFilter = WebhookDeliveryListQuery.pick({ status: true });

/** Deliveries: the paged list, one delivery's page, Resend, and the live stream both pages listen to. */
export function deliveryRoutes(ctx: ConsoleContext) {
  /** A delivery of one of the signed-in account's apps; another account's is reported missing, as the API's loader does. */
  const ownDelivery = (c: Context<ConsoleEnv>, id: string): DeliveryWithEvent => {
    const row = ctx.store.webhooks.deliveryById(id);
    if (!row || !c.get('developer').apps.some((a) => a.id === row.app_id)) {
      throw new ApiError('resource_missing', `No delivery ${id.slice(0, 100)}.`, 'delivery_id');
    }
    return row;
  };
  const detailPage = (c: Context<ConsoleEnv>, row: DeliveryWithEvent, failure?: Failure) => {
    const chrome = chromeOf(ctx, c);
    const live = pageHref('/deliveries/live', chrome.app, chrome.apps, { delivery: row.id });
    const page = (
      <DeliveryPage
        chrome={chrome}
        detail={deliveryDetail(ctx.store, ctx.box, emulatorUserAgent(ctx.config.version), row)}
        failure={failure}
        resent={c.req.query('done') === 'resent'}
        live={live}
      />
    );
    return renderPage(c, page, failure?.status ?? 200);
  };

  return new Hono<ConsoleEnv>()
    .get('/deliveries', (c) => {
      const chrome = chromeOf(ctx, c);
      const before = c.req.query('before');
      const after = c.req.query('after');
      let status: DeliveryWithEvent['status'] | undefined;
      let failure: Failure | undefined;
      try {
        status = parseWith(StatusFilter, { status: c.req.query('status') || undefined }).status;
      } catch (error) {
        failure = failureOf('filter', error);
      }
      const page = ctx.store.deliveryPages.page({ app_id: chrome.app.id, status, before, after, limit: DELIVERY_PAGE_SIZE });
      const first = !page.hasNewer;
      const live = pageHref('/deliveries/live', chrome.app, chrome.apps, { status, first: first ? '1' : undefined });
      const total = ctx.store.deliveryPages.count(chrome.app.id, status);
      const duplicateSends = new Map(page.rows.map((row) => [row.id, duplicateSendCount(ctx.store, row.id)]));
      const view = (
        <DeliveriesPage
          chrome={chrome}
          page={page}
          total={total}
          status={status}
          failure={failure}
          first={first}
          live={live}
          duplicateSends={duplicateSends}
        />
      );
      return renderPage(c, view, failure?.status ?? 200);
    })
    .get('/deliveries/live', (c) => deliveryStream(ctx, c))
    .get('/deliveries/:delivery_id', (c) => detailPage(c, ownDelivery(c, c.req.param('delivery_id'))))
    .post('/deliveries/:delivery_id/resend', async (c) => {
      const row = ownDelivery(c, c.req.param('delivery_id'));
      const result = await attempt('resend', () => resendOrRefuse(ctx, row.event_id));
      if (!result.ok) return detailPage(c, row, result.failure);
      return redirectDone(c, `/deliveries/${encodeURIComponent(result.value)}`, 'resent');
    });
}
