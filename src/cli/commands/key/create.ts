import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { envOption, renderKeys } from './render.js';

/** `scanctl key create [--env ENV]` (CHOICE-8). */
export function register(group: Command): void {
  group
    .command('create')
    .description('issue a key pair (live needs the billing profile and accepted terms); the secret is shown once')
    .addOption(envOption())
    .action(async (flags: { env: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const keys = await ctx.control().issueKeys(await ctx.appId(), flags.env);
      ctx.print(keys, (k) => renderKeys(k.data));
    });
}
