import { Option, type Command } from 'commander';
import { contextOf } from '../../context.js';
import { renderKeys } from './render.js';

/** `scanctl key list [--env ENV]`. */
export function register(group: Command): void {
  group
    .command('list')
    .description("list the app's keys (secret keys only in their redacted form)")
    .addOption(new Option('--env <env>', 'only test or only live keys (default: both)').choices(['test', 'live']))
    .action(async (flags: { env?: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const keys = await ctx.control().keys(await ctx.appId());
      const shown = flags.env ? { ...keys, data: keys.data.filter((k) => k.env === flags.env) } : keys;
      ctx.print(shown, (k) => renderKeys(k.data));
    });
}
