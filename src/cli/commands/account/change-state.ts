import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl account suspend|reinstate [account_id]` (CHOICE-8); default: the app's account. */
function accountStateCommand(action: 'suspend' | 'reinstate', description: string) {
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

/** The group's verbs: they differ only in the action. */
export const ACCOUNT_STATE_VERBS = [
  { register: accountStateCommand('suspend', 'suspend an account: its keys get 403 account_suspended') },
  { register: accountStateCommand('reinstate', 'lift an account suspension') },
] as const;
