import { Option, type Command } from 'commander';
import type { DeliveryDetail, DeliveryStatus } from '../../../contract/webhooks.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { columns, table } from '../../output.js';
import { DELIVERY_HEADER, deliveryRow } from './format.js';

export function registerDeliveries(group: Command): void {
  group
    .command('deliveries')
    .description("list the app's webhook deliveries, newest first")
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(['pending', 'in_flight', 'succeeded', 'failed', 'cancelled']))
    .option('--scan <scan_id>', 'only deliveries of this scan')
    .option('--event <event_id>', 'only deliveries of this event')
    .option('--limit <n>', 'at most this many (1-1000)', '50')
    .action(async (flags: { status?: string; scan?: string; event?: string; limit: string }, command: Command) => {
      const ctx = contextOf(command);
      const limit = Number(flags.limit);
      if (!/^\d+$/.test(flags.limit) || limit < 1 || limit > 1000) throw new UserError(`--limit must be a whole number from 1 to 1000, not "${flags.limit}"`);
      const control = ctx.control();
      const appId = await ctx.appId();
      const list = await control.deliveries({ app_id: appId, status: flags.status as DeliveryStatus | undefined, scan_id: flags.scan, event_id: flags.event, limit });
      ctx.print(list, (l) => (l.data.length === 0 ? `no deliveries for ${appId}` : columns(DELIVERY_HEADER, l.data.map(deliveryRow))));
    });

  group
    .command('delivery <delivery_id>')
    .description('one delivery: its attempts, and the exact headers and body it sends')
    .action(async (deliveryId: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().delivery(deliveryId), renderDetail);
    });

  group
    .command('resend <event_id>')
    .description('send an event again: a new delivery with the same event id and the same signed bytes, due now')
    .action(async (eventId: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const d = await ctx.control().resendEvent(eventId);
      ctx.print(d, () => `resending ${d.event_id} (${d.event_type}) as ${d.id}, due now`);
    });
}

export function renderDetail(d: DeliveryDetail): string {
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
        ['#', 'STARTED', 'STATUS', 'LATENCY', 'ERROR'],
        d.attempt_log.map((a) => [String(a.number), a.started_at, a.status === null ? '---' : String(a.status), a.latency_ms === null ? '' : `${a.latency_ms} ms`, a.error ?? '']),
      ),
    );
  }
  return lines.join('\n');
}
