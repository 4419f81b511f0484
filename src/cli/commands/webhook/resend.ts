import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl webhook resend EVENT`: the same event id and signed bytes, due now. */
export function register(group: Command): void {
  group
    .command('resend <event_id>')
    .description('send an event again: a new delivery with the same event id and the same signed bytes, due now')
    .action(async (eventId: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const d = await ctx.control().resendEvent(eventId);
      ctx.print(d, () => `resending ${d.event_id} (${d.event_type}) as ${d.id}, due now`);
    });
}
