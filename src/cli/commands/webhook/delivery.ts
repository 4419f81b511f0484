import type { Command } from 'commander';
import type { WebhookDeliveryDetail } from '../../../contract/webhooks.js';
import { contextOf } from '../../context.js';
import { columns, table } from '../../output.js';
import { answerExcerpt } from './format.js';

/** `scanctl webhook delivery ID`: its attempts and the exact request. */
export function register(group: Command): void {
  group
    .command('delivery <delivery_id>')
    .description('one delivery: its attempts, and the exact headers and body it sends')
    .action(async (deliveryId: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().delivery(deliveryId), renderDetail);
    });
}

export function renderDetail(d: WebhookDeliveryDetail): string {
  const lines = [
    table([
      ['delivery', d.id],
      ['event', `${d.event_id} (${d.event_type})`],
      ['scan', d.scan_id],
      ['status', `${d.status}, attempt ${d.attempts} of ${d.max_attempts}${d.next_attempt_at ? `, next at ${d.next_attempt_at}` : ''}`],
    ]),
    '',
    `POST ${d.request.url ?? '(no webhook URL)'}`,
    ...Object.entries(d.request.headers).map(([k, v]) => `${k}: ${v}`),
    '',
    d.request.body,
  ];
  if (d.attempt_log.length) {
    lines.push(
      '',
      columns(
        ['#', 'STARTED', 'STATUS', 'LATENCY', 'ERROR', "RECEIVER'S ANSWER"],
        d.attempt_log.map((a) => [
          a.duplicate_send ? `${a.number} dup` : String(a.number),
          a.started_at,
          a.status === null ? '---' : String(a.status),
          a.latency_ms === null ? '' : `${a.latency_ms} ms`,
          a.error ?? '',
          a.response_excerpt ? answerExcerpt(a.response_excerpt, 120) : '',
        ]),
      ),
    );
  }
  return lines.join('\n');
}
