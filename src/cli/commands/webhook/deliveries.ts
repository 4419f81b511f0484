import { Option, type Command } from 'commander';
import { DeliveryStatus } from '../../../contract/webhooks.js';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';
import { wholeNumber } from '../../parse-options.js';
import { DELIVERY_HEADER, deliveryRow } from './format.js';

/** `scanctl webhook deliveries`: newest first. */
export function register(group: Command): void {
  group
    .command('deliveries')
    .description("list the app's webhook deliveries, newest first")
    .addOption(new Option('--status <status>', 'only deliveries in this state').choices(DeliveryStatus.options))
    .option('--scan <scan_id>', 'only deliveries of this scan')
    .option('--event <event_id>', 'only deliveries of this event')
    .option('--user <ref>', "only deliveries of this member's events (host_user_ref)")
    .addOption(new Option('--limit <n>', 'at most this many (1-1000)').argParser(wholeNumber(1, 1000)).default(50))
    .action(async (flags: { status?: DeliveryStatus; scan?: string; event?: string; user?: string; limit: number }, command: Command) => {
      const ctx = contextOf(command);
      const appId = await ctx.appId();
      const list = await ctx.control().deliveries({
        app_id: appId,
        status: flags.status,
        scan_id: flags.scan,
        event_id: flags.event,
        host_user_ref: flags.user,
        limit: flags.limit,
      });
      ctx.print(list, (l) => (l.data.length === 0 ? `no deliveries for ${appId}` : columns(DELIVERY_HEADER, l.data.map(deliveryRow))));
    });
}
