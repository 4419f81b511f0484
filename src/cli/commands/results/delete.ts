import type { Command } from 'commander';
import { deleteResults } from '../../../client/service.js';
import { globalOptions, resolveBaseUrl, resolveSecretKey } from '../../context.js';
import { printResult } from '../../output.js';

export function register(group: Command): void {
  group
    .command('delete')
    .description("delete a member's stored results and queued deliveries (DELETE /v1/results)")
    .requiredOption('--user <ref>', "the member's host_user_ref")
    .option('--key <key>', 'secret key (env SCANCTL_SECRET_KEY; default against the local emulator: its test key)')
    .action(async (flags: { user: string; key?: string }, command: Command) => {
      const options = globalOptions(command);
      const baseUrl = resolveBaseUrl(options);
      const key = await resolveSecretKey({ ...options, key: flags.key });
      const result = await deleteResults(baseUrl, key, flags.user);
      printResult(Boolean(options.json), result, (r) => `deleted ${r.deleted} stored result${r.deleted === 1 ? '' : 's'} of ${r.host_user_ref}`);
    });
}
