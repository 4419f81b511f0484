import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl state checkpoint [NAME]`: keep the whole state to restore it later (CHOICE-45). */
export function register(group: Command): void {
  group
    .command('checkpoint [name]')
    .description('keep the whole state (every table, the clock offset, pending deliveries) to put it back with `state restore`')
    .addHelpText(
      'after',
      '\nA NAME already in use moves to the new checkpoint (the old one is deleted). Checkpoints are kept beside the\ndatabase file (scanctl.db.checkpoints), so they outlive a restart; an in-memory emulator keeps them in memory.',
    )
    .action(async (name: string | undefined, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const result = await ctx.control().checkpoint(name);
      ctx.print(result, (r) => {
        const replaced = r.replaced ? ` (replacing ${r.replaced})` : '';
        return `Checkpoint ${r.id}${r.name ? ` "${r.name}"` : ''}${replaced}: ${r.rows} rows at ${r.created_at}; restore with \`scanctl state restore ${r.name ?? r.id}\`.`;
      });
    });
}
