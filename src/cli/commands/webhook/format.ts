import type { WebhookDelivery } from '../../../contract/webhooks.js';
import type { WebhookStreamEvent } from '../../../contract/webhook-stream.js';

/** One plain line per finished attempt, for `webhook listen` off a terminal. */
export function attemptLine(e: WebhookStreamEvent): string {
  const status = e.status === null ? '---' : String(e.status);
  const latency = e.latency_ms === null ? '' : `${e.latency_ms} ms`;
  const tail =
    e.outcome === 'retrying'
      ? `retrying at ${e.next_attempt_at}${e.error ? ` (${e.error})` : ''}`
      : e.outcome === 'succeeded'
        ? 'succeeded'
        : `${e.outcome}${e.error ? ` (${e.error})` : ''}`;
  const line = [e.time, e.event_id, e.event_type, e.scan_id, `attempt ${e.attempt}/${e.max_attempts}`, status, latency, tail]
    .filter(Boolean)
    .join('  ');
  return e.outcome === 'succeeded' || !e.response_excerpt ? line : `${line}  answer: ${answerExcerpt(e.response_excerpt)}`;
}

/** The start of the receiver's answer body on one line, quoted (JSON string escapes) so its end is visible. */
export function answerExcerpt(excerpt: string, max = 200): string {
  const flat = excerpt.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

export function deliveryRow(d: WebhookDelivery): string[] {
  return [
    d.id,
    d.event_id,
    d.event_type,
    d.scan_id,
    d.status,
    `${d.attempts}/${d.max_attempts}`,
    d.last_status === null ? (d.last_error ? '---' : '') : String(d.last_status),
    d.next_attempt_at ?? '',
  ];
}

export const DELIVERY_HEADER = ['DELIVERY', 'EVENT', 'TYPE', 'SCAN', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT'] as const;
