import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl account suspend|reinstate [account_id]` (CHOICE-8); default: the app's account. */
export function accountStateCommand(action: 'suspend' | 'reinstate', description: string) {
  return (group: Command): void => {
    group
      .command(`${action} [account_id]`)
      .description(description)
      .action(async (accountId: string | undefined, _flags: object, command: Command) => {
        const ctx = contextOf(command);
        const control = ctx.control();
        const id = accountId ?? (await control.app(await ctx.appId())).account_id;
        const account = await control.accountAction(id, action);
        ctx.print(account, (a) => `${a.id} is ${a.suspended ? `suspended since ${a.suspended_at}` : 'active'}`);
      });
  };
}
