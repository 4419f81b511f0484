import type { Command } from 'commander';
import { formatDuration, parseDuration } from '../../../clock/duration.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import type { ClockResponse } from '../../../contract/control.js';

const render = (c: ClockResponse) =>
  `${c.now}  (${c.offset_ms === 0 ? 'real time' : `real time + ${formatDuration(Math.round(c.offset_ms / 1000) * 1000)}`}${c.played ? `; played ${c.played} due moment${c.played === 1 ? '' : 's'}` : ''})`;

/** `scanctl clock show|advance DURATION|set TIME`: the clock only moves forward. */
export function register(group: Command): void {
  group
    .command('show')
    .description("print the emulator's current time")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().clock(), render);
    });

  group
    .command('advance <duration>')
    .description('move the clock forward (90s, 15m, 24h, 3d), playing every due event at its own time')
    .action(async (duration: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      if (parseDuration(duration) === null) throw new UserError(`invalid duration "${duration}": use forms like 90s, 15m, 24h, 3d`);
      ctx.print(await ctx.control().advanceClock(duration), render);
    });

  group
    .command('set <time>')
    .description('move the clock forward to an ISO time, e.g. 2026-12-01T00:00:00Z')
    .action(async (time: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      if (Number.isNaN(Date.parse(time))) throw new UserError(`invalid time "${time}": use ISO 8601, e.g. 2026-12-01T00:00:00Z`);
      ctx.print(await ctx.control().setClock(new Date(time).toISOString()), render);
    });
}
