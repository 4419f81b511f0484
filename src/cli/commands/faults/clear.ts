import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl faults clear [id]`. */
export function register(group: Command): void {
  group
    .command('clear [id]')
    .description('remove one fault, or all of them')
    .action(async (id: string | undefined, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const result = await ctx.control().clearFaults(id);
      ctx.print(result, (r) => (id ? `Cleared ${id}.` : `Cleared ${r.cleared} fault${r.cleared === 1 ? '' : 's'}.`));
    });
}
