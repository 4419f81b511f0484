import { Argument, type Command } from 'commander';
import { contextOf } from '../../context.js';
import { time } from '../../parse-options.js';
import { renderClock } from './render.js';

/** `scanctl clock set TIME`: forward only. */
export function register(group: Command): void {
  group
    .command('set')
    .description('move the clock forward to an RFC 3339 time, e.g. 2026-12-01T00:00:00Z')
    .addArgument(new Argument('<time>', 'the new time, with its offset (Z or +01:00)').argParser(time))
    .action(async (iso: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().setClock(iso), renderClock);
    });
}
