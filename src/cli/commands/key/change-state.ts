import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { envOption, renderKeys } from './render.js';

/** `scanctl key revoke|suspend|reinstate [key_id]`: one shape, three actions (each in its own file). */
export function keyStateCommand(action: 'revoke' | 'suspend' | 'reinstate', description: string) {
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
