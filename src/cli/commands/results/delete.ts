import type { Command } from 'commander';
import { deleteResults } from '../../../client/service.js';
import { contextOf } from '../../context.js';

export function register(group: Command): void {
  group
    .command('delete')
    .description("delete a member's stored results and queued deliveries (DELETE /v1/results)")
    .requiredOption('--user <ref>', "the member's host_user_ref")
    .option('--key <key>', 'secret key (env SCANCTL_SECRET_KEY; default against the local emulator: its test key)')
    .action(async (flags: { user: string; key?: string }, command: Command) => {
      const ctx = contextOf(command);
      ctx.requireKnownEmulator('results delete');
      const baseUrl = ctx.baseUrl;
      const key = await ctx.secretKey(flags.key);
      const result = await deleteResults(baseUrl, key, flags.user, ctx.http);
      ctx.print(result, (r) => `deleted ${r.deleted} stored result${r.deleted === 1 ? '' : 's'} of ${r.host_user_ref}`);
    });
}
