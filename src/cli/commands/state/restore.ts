import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl state restore NAME|ID`: one transaction (CHOICE-45). */
export function register(group: Command): void {
  group
    .command('restore <checkpoint>')
    .description('put the whole state back as a `state checkpoint` kept it (by name or id), clock offset and pending deliveries included')
    .action(async (checkpoint: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.requireKnownEmulator('state restore');
      const result = await ctx.control().restoreCheckpoint(checkpoint);
      ctx.print(result, (r) => `Restored ${r.id}${r.name ? ` "${r.name}"` : ''}: ${r.rows} rows; clock offset ${r.clock_offset_ms} ms.`);
    });
}
