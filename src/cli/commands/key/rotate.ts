import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { envOption, renderKeys } from './render.js';

/** `scanctl key rotate [--env ENV]`: the old secret keeps working for the grace period. */
export function register(group: Command): void {
  group
    .command('rotate')
    .description('replace the secret key; the old one keeps working for 24 hours')
    .addOption(envOption())
    .action(async (flags: { env: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const keys = await ctx.control().rotateKey(await ctx.appId(), flags.env);
      ctx.print(keys, (k) => renderKeys(k.data));
    });
}
