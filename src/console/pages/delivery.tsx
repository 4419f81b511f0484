/** @jsxImportSource hono/jsx */
import type { WebhookDeliveryDetail } from '../../contract/webhooks.js';
import type { Failure } from '../form.js';
import { Layout, type Chrome } from './layout.js';
import { ActionForm, AnswerText, Notice, TableRegion, Time } from './parts.js';

export interface DeliveryProps {
  chrome: Chrome;
  detail: WebhookDeliveryDetail;
  failure?: Failure | undefined;
  resent: boolean;
  live: string;
}

/** One delivery: the exact request (headers and signed body), every attempt, and Resend. */
export function DeliveryPage(props: DeliveryProps) {
  const { detail } = props;
  return (
    <Layout page="Deliveries" title={`Delivery ${detail.id}`} chrome={props.chrome} failure={props.failure} live={props.live}>
      {props.resent ? <Notice>Resent: a new delivery of the same event (same id, same signed bytes), due now.</Notice> : null}
      <p>
        <a href="/deliveries">All deliveries</a>{' '}
        <span id="live-status" role="status" class="muted">
          Reload to see the latest.
        </span>
      </p>
      <ActionForm
        action={`/deliveries/${encodeURIComponent(detail.id)}/resend`}
        label="Resend"
        form="resend"
        failure={props.failure}
        ariaLabel={`Resend event ${detail.event_id}`}
      />
      <DeliveryLive detail={detail} now={props.chrome.now} />
    </Layout>
  );
}

/** The part of the page that changes as attempts happen (replaced whole by live updates). */
export function DeliveryLive(props: { detail: WebhookDeliveryDetail; now: number }) {
  const { detail, now } = props;
  const at = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  return (
    <div id="delivery-live">
      <h2>Summary</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`status status-${detail.status}`}>{detail.status}</span>
        </dd>
        <dt>Attempt</dt>
        <dd>
          {detail.attempts}/{detail.max_attempts}
        </dd>
        <dt>Next attempt</dt>
        <dd>{detail.status === 'pending' ? <Time ms={at(detail.next_attempt_at)} now={now} /> : '-'}</dd>
        <dt>Event</dt>
        <dd>
          <code>{detail.event_id}</code> ({detail.event_type}){detail.origin === 'resend' ? ', a resend' : ''}
        </dd>
        <dt>Scan</dt>
        <dd>
          <code>{detail.scan_id}</code>
        </dd>
        <dt>Member</dt>
        <dd class="wrap">{detail.host_user_ref}</dd>
        <dt>Created</dt>
        <dd>
          <Time ms={at(detail.created_at)} now={now} />
        </dd>
        {detail.last_error ? (
          <>
            <dt>Last error</dt>
            <dd class="wrap">{detail.last_error}</dd>
          </>
        ) : null}
      </dl>
      <h2>Request</h2>
      <p class="wrap">
        <code>
          {detail.request.method} {detail.request.url ?? '(no webhook URL: nowhere to send)'}
        </code>
      </p>
      <TableRegion label="Request headers">
        <table>
          <caption>Headers {detail.attempt_log.length ? 'sent on the last attempt' : 'it will carry'}</caption>
          <thead>
            <tr>
              <th scope="col">Header</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(detail.request.headers).map(([name, value]) => (
              <tr>
                <th scope="row">{name}</th>
                <td class="wrap mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      <h3>Body (the exact signed bytes)</h3>
      <pre class="body" tabindex={0} aria-label="Request body">
        {detail.request.body || "(deleted with the member's results)"}
      </pre>
      <h2>Attempts</h2>
      {detail.attempt_log.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <TableRegion label="Attempts">
          <table class="cards">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Started</th>
                <th scope="col">URL</th>
                <th scope="col">Receiver status</th>
                <th scope="col">Latency</th>
                <th scope="col">Answer (excerpt) or error</th>
              </tr>
            </thead>
            <tbody>
              {detail.attempt_log.map((a) => (
                <tr>
                  <td data-label="#">
                    {a.number}
                    {a.duplicate_send ? <span class="muted"> duplicate send</span> : null}
                  </td>
                  <td data-label="Started">
                    <Time ms={Date.parse(a.started_at)} now={now} />
                  </td>
                  <td data-label="URL" class="wrap">
                    {a.url}
                  </td>
                  <td data-label="Receiver status">{a.status ?? '-'}</td>
                  <td data-label="Latency">{a.latency_ms === null ? '-' : `${a.latency_ms} ms`}</td>
                  <td data-label="Answer or error" class="wrap mono">
                    <AnswerText error={a.error} status={null} excerpt={a.response_excerpt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </div>
  );
}
