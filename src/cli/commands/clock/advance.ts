import { Argument, type Command } from 'commander';
import { formatDuration } from '../../../clock/duration.js';
import { contextOf } from '../../context.js';
import { duration } from '../../parse-options.js';
import { renderClock } from './render.js';

/** `scanctl clock advance DURATION`: the clock only moves forward. */
export function register(group: Command): void {
  group
    .command('advance')
    .description('move the clock forward (90s, 15m, 24h, 3d), playing every due event at its own time')
    .addArgument(new Argument('<duration>', 'how far, e.g. 90s, 15m, 24h, 3d, 1h30m').argParser(duration()))
    .action(async (ms: number, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().advanceClock(formatDuration(ms)), renderClock);
    });
}
