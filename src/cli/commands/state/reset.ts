import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl state reset`: the clock keeps its time. */
export function register(group: Command): void {
  group
    .command('reset')
    .description('empty every table (faults and chaos too) and re-seed the fixtures the emulator loaded; the clock keeps its time')
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.requireKnownEmulator('state reset');
      const result = await ctx.control().resetState();
      ctx.print(
        result,
        (r) =>
          `Reset the emulator: every table emptied, re-seeded from ${r.fixtures ?? 'no fixtures'} (apps: ${r.apps.join(', ') || 'none'}).`,
      );
    });
}
