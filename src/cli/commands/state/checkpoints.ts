import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';

/** `scanctl state checkpoints [--delete NAME|ID]`. */
export function register(group: Command): void {
  group
    .command('checkpoints')
    .description('list the checkpoints kept, oldest first; --delete one by name or id')
    .option('--delete <checkpoint>', 'delete this checkpoint (name or id)')
    .action(async (flags: { delete?: string }, command: Command) => {
      const ctx = contextOf(command);
      if (flags.delete !== undefined) {
        const deleted = await ctx.control().deleteCheckpoint(flags.delete);
        ctx.print(deleted, (r) => `Deleted checkpoint ${r.id}${r.name ? ` "${r.name}"` : ''}.`);
        return;
      }
      const list = await ctx.control().checkpoints();
      ctx.print(list, (l) =>
        l.data.length === 0
          ? 'No checkpoints (take one with `scanctl state checkpoint [NAME]`).'
          : columns(
              ['ID', 'NAME', 'TAKEN AT', 'ROWS'],
              l.data.map((c) => [c.id, c.name ?? '-', c.created_at, String(c.rows)]),
            ),
      );
    });
}
