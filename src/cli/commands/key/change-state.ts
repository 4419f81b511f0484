import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { envOption, renderKeys } from './render.js';

/** `scanctl key revoke|suspend|reinstate [key_id]`: one shape, three actions. */
function keyStateCommand(action: 'revoke' | 'suspend' | 'reinstate', description: string) {
  return (group: Command): void => {
    group
      .command(`${action} [key_id]`)
      .description(`${description}; without key_id, the current secret key of --env`)
      .addOption(envOption())
      .action(async (keyId: string | undefined, flags: { env: 'test' | 'live' }, command: Command) => {
        const ctx = contextOf(command);
        if (action === 'revoke') ctx.requireKnownEmulator('key revoke');
        const key = await ctx.control().keyAction(await ctx.appId(), action, keyId ? { key_id: keyId } : { env: flags.env });
        ctx.print(key, (k) => renderKeys([k]));
      });
  };
}

/** `scanctl key revoke`, `suspend` and `reinstate` (CHOICE-8): they differ only in the action. */
export const KEY_STATE_VERBS = [
  { register: keyStateCommand('revoke', 'revoke a key at once (final)') },
  { register: keyStateCommand('suspend', 'suspend a key (403 key_suspended until reinstated)') },
  { register: keyStateCommand('reinstate', 'lift a key suspension') },
] as const;
