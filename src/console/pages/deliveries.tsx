/** @jsxImportSource hono/jsx */
import { CHOICES } from '../../contract/choices.js';
import { DELIVERY_STATUSES } from '../../contract/webhooks.js';
import { COUNT_CAP, type DeliveryPage, type DeliveryPageRow } from '../../store/tables/delivery-pages.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { AnswerText, ClipCell, ErrorText, fieldFailure, RecordTable, Time } from './parts.js';

export const DELIVERY_PAGE_SIZE = 50;

export interface DeliveriesProps {
  chrome: Chrome;
  page: DeliveryPage;
  total: number;
  status: string | undefined;
  failure?: Failure | undefined;
  /** The newest page updates live (new deliveries appear); other pages update their own rows only. */
  first: boolean;
  live: string;
  /** Per delivery of the page: the sends chaos --duplicate added to its attempts. */
  duplicateSends: ReadonlyMap<string, number>;
}

/** The element id of a delivery's row, which live updates replace. */
export const rowId = (id: string) => `delivery-${id}`;

/** The delivery list: newest first, a page at a time, updating live. */
export function DeliveriesPage(props: DeliveriesProps) {
  const { chrome, page } = props;
  const { app, apps } = chrome;
  const statusFailure = fieldFailure(props.failure, 'filter', 'status');
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return (
    <Layout page="Deliveries" chrome={chrome} failure={props.failure} live={props.live}>
      <p>
        Webhook deliveries of <code>{app.id}</code>: each attempt up to {CHOICES.webhookMaxAttempts}, retried on the emulator's clock.{' '}
        <span id="live-status" role="status" class="muted">
          Reload to see the latest.
        </span>
      </p>
      <form method="get" action="/deliveries" class="filters">
        {apps[0] && app.id !== apps[0].id ? <input type="hidden" name="app" value={app.id} /> : null}
        <div class="field">
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            name="status"
            aria-invalid={statusFailure ? 'true' : undefined}
            aria-describedby={statusFailure ? 'filter-status-error' : undefined}
          >
            <option value="">any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option value={s} selected={s === props.status}>
                {s}
              </option>
            ))}
          </select>
          {statusFailure ? <ErrorText id="filter-status-error" failure={statusFailure} /> : null}
        </div>
        <button type="submit">Filter</button>
      </form>
      <DeliveryTotal total={props.total} status={props.status} />
      <RecordTable
        label="Deliveries"
        caption="Deliveries, newest first"
        columns={['Delivery', 'Event', 'Member', 'Status', 'Attempt', 'Receiver answered', 'Latency', 'Next attempt', 'Created']}
        tbody={{ id: 'deliveries-rows', 'data-max': props.first ? String(DELIVERY_PAGE_SIZE) : undefined }}
        empty="No deliveries yet. Set a Webhook URL in Settings, then run a scan (scanctl scan simulate)."
        rows={page.rows.map((row) => (
          <DeliveryRow row={row} chrome={chrome} duplicateSends={props.duplicateSends.get(row.id) ?? 0} />
        ))}
      />
      <nav aria-label="Pages" class="pager">
        {page.hasNewer && first ? <a href={pageHref('/deliveries', app, apps, { status: props.status, after: first.id })}>Newer</a> : null}
        {page.hasNewer ? <a href={pageHref('/deliveries', app, apps, { status: props.status })}>Newest</a> : null}
        {page.hasOlder && last ? <a href={pageHref('/deliveries', app, apps, { status: props.status, before: last.id })}>Older</a> : null}
      </nav>
    </Layout>
  );
}

export function DeliveryRow(props: { row: DeliveryPageRow; chrome: Chrome; duplicateSends: number }) {
  const { row, chrome, duplicateSends } = props;
  return (
    <tr id={rowId(row.id)}>
      <ClipCell label="Delivery" value={row.id}>
        <a href={pageHref(`/deliveries/${encodeURIComponent(row.id)}`, chrome.app, chrome.apps)}>{row.id}</a>
      </ClipCell>
      <td data-label="Event">
        {row.event_type}
        {row.origin === 'resend' ? <span class="badge">resend</span> : null}
      </td>
      <ClipCell label="Member" value={row.host_user_ref} />
      <td data-label="Status">
        <span class={`status status-${row.status}`}>{row.status}</span>
        {/* Why it was cancelled (DEL-2, WH-3): the receiver's last answer is beside the point. */}
        {row.status === 'cancelled' && row.last_error ? <span class="muted wrap"> {row.last_error}</span> : null}
      </td>
      <td data-label="Attempt" class="nowrap">
        {row.attempts}/{CHOICES.webhookMaxAttempts}
        {/* CHOICE-68: sends of its attempts (WH-8), not attempts: the count and the answer are the first sends'. */}
        {duplicateSends > 0 ? (
          <span class="badge">+{duplicateSends === 1 ? '1 duplicate send' : `${duplicateSends} duplicate sends`}</span>
        ) : null}
      </td>
      <td data-label="Receiver answered" class="wrap">
        <AnswerText
          error={row.last_status === null ? row.last_error : null}
          status={row.last_status}
          excerpt={row.response_excerpt}
          max={80}
        />
      </td>
      <td data-label="Latency">{row.latency_ms === null ? '-' : `${row.latency_ms} ms`}</td>
      <td data-label="Next attempt">{row.status === 'pending' ? <Time ms={row.next_attempt_at} now={chrome.now} /> : '-'}</td>
      <td data-label="Created">
        <Time ms={row.created_at} now={chrome.now} />
      </td>
    </tr>
  );
}

/** How many deliveries the list holds (live updates replace it by its id). */
export function DeliveryTotal(props: { total: number; status: string | undefined }) {
  const total = props.total > COUNT_CAP ? `More than ${COUNT_CAP.toLocaleString('en')}` : props.total.toLocaleString('en');
  return (
    <p class="muted" id="deliveries-total">
      {total} {props.status ? `${props.status} ` : ''}
      {props.total === 1 ? 'delivery' : 'deliveries'}
    </p>
  );
}
