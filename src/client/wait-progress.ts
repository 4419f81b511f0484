import type { WebhookDelivery } from '../contract/webhooks.js';

/**
 * One line on how a wait stands, e.g. "waiting for 3 deliveries (1 delivered, 2 retrying, next
 * attempt 12:00:30 on the emulator clock)".
 */
export function waitProgress(deliveries: WebhookDelivery[]): string {
  const count = (test: (d: WebhookDelivery) => boolean) => deliveries.filter(test).length;
  const parts: Array<[number, string]> = [
    [count((d) => d.status === 'succeeded'), 'delivered'],
    [count((d) => d.status === 'pending' && d.attempts === 0), 'queued'],
    [count((d) => d.status === 'in_flight'), 'sending'],
    [count((d) => d.status === 'pending' && d.attempts > 0), 'retrying'],
    [count((d) => d.status === 'failed'), 'exhausted'],
    [count((d) => d.status === 'cancelled'), 'cancelled'],
  ];
  const retries = deliveries.flatMap((d) => (d.status === 'pending' && d.attempts > 0 && d.next_attempt_at ? [d.next_attempt_at] : []));
  const next = retries.sort()[0];
  const said = parts.filter(([n], i) => n > 0 || i === 0).map(([n, what]) => `${n} ${what}`);
  if (next) said.push(`next attempt ${next.slice(11, 19)} on the emulator clock`);
  const n = deliveries.length;
  return `waiting for ${n} deliver${n === 1 ? 'y' : 'ies'} (${said.join(', ')})`;
}

/** An `onProgress` that writes the progress line each time it changes (never the same line twice in a row). */
export function progressLines(write: (line: string) => void): (deliveries: WebhookDelivery[]) => void {
  let last = '';
  return (deliveries) => {
    const line = waitProgress(deliveries);
    if (line !== last) write(line);
    last = line;
  };
}
