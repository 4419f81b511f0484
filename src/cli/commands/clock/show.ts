import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { renderClock } from './render.js';

/** `scanctl clock show`. */
export function register(group: Command): void {
  group
    .command('show')
    .description("print the emulator's current time")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      ctx.print(await ctx.control().clock(), renderClock);
    });
}
