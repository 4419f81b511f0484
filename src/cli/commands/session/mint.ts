import type { Command } from 'commander';
import { mintSession } from '../../../client/service.js';
import { contextOf } from '../../context.js';
import { table } from '../../output.js';
import type { Scope } from '../../../contract/sessions.js';

export function register(group: Command): void {
  group
    .command('mint')
    .description('mint a 15-minute session token for a member (POST /v1/sessions)')
    .requiredOption('--user <ref>', "the member's host_user_ref: your own stable id of the person")
    .option('--scope <scope>', 'a scope to request (repeatable); default [scan.create]', (value: string, all: string[] = []) => [
      ...all,
      value,
    ])
    .option('--no-scopes', 'request an empty scope list (a token that cannot report scans)')
    .option('--key <key>', 'secret key (env SCANCTL_SECRET_KEY; default against the local emulator: its test key)')
    .action(async (flags: { user: string; scope?: string[]; scopes?: boolean; key?: string }, command: Command) => {
      const ctx = contextOf(command);
      const baseUrl = ctx.baseUrl;
      const key = await ctx.secretKey(flags.key);
      const scopes = flags.scopes === false ? [] : flags.scope;
      const session = await mintSession(
        baseUrl,
        key,
        {
          host_user_ref: flags.user,
          // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the service judges a scope (400 parameter_invalid), not the CLI: a newer service may know more
          ...(scopes ? { scopes: scopes as Scope[] } : {}),
        },
        ctx.http,
      );
      ctx.print(session, (s) =>
        table([
          ['session_token', s.session_token],
          ['expires_at', s.expires_at],
        ]),
      );
    });
}
