import { Option, type Command } from 'commander';
import type { KeyView } from '../../../contract/control.js';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';

const envOption = () => new Option('--env <env>', 'test or live').choices(['test', 'live']).default('test');

function renderKeys(keys: KeyView[]): string {
  const rows = keys.map((k) => [
    k.id,
    k.env,
    k.kind,
    k.secret ?? k.display,
    k.state + (k.state === 'rotating' && k.grace_until ? ` until ${k.grace_until}` : ''),
  ]);
  const out = columns(['ID', 'ENV', 'KIND', 'KEY', 'STATE'], rows);
  return keys.some((k) => k.secret && k.kind === 'secret') ? `${out}\n\nThe secret key is shown once: store it now.` : out;
}

/** `scanctl key list|create|rotate|revoke|suspend|reinstate` (CHOICE-8). */
export function register(group: Command): void {
  group
    .command('list')
    .description("list the app's keys (secret keys only in their redacted form)")
    .addOption(new Option('--env <env>', 'only test or only live keys (default: both)').choices(['test', 'live']))
    .action(async (flags: { env?: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const keys = await control.keys(await ctx.appId());
      const shown = flags.env ? { ...keys, data: keys.data.filter((k) => k.env === flags.env) } : keys;
      ctx.print(shown, (k) => renderKeys(k.data));
    });

  group
    .command('create')
    .description('issue a key pair (live needs the billing profile and accepted terms); the secret is shown once')
    .addOption(envOption())
    .action(async (flags: { env: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const keys = await control.issueKeys(await ctx.appId(), flags.env);
      ctx.print(keys, (k) => renderKeys(k.data));
    });

  group
    .command('rotate')
    .description('replace the secret key; the old one keeps working for 24 hours')
    .addOption(envOption())
    .action(async (flags: { env: 'test' | 'live' }, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const keys = await control.rotateKey(await ctx.appId(), flags.env);
      ctx.print(keys, (k) => renderKeys(k.data));
    });

  for (const [action, description] of [
    ['revoke', 'revoke a key at once (final)'],
    ['suspend', 'suspend a key (403 key_suspended until reinstated)'],
    ['reinstate', 'lift a key suspension'],
  ] as const) {
    group
      .command(`${action} [key_id]`)
      .description(`${description}; without key_id, the current secret key of --env`)
      .addOption(envOption())
      .action(async (keyId: string | undefined, flags: { env: 'test' | 'live' }, command: Command) => {
        const ctx = contextOf(command);
        const control = ctx.control();
        const key = await control.keyAction(await ctx.appId(), action, keyId ? { key_id: keyId } : { env: flags.env });
        ctx.print(key, (k) => renderKeys([k]));
      });
  }
}
