import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl account suspend|reinstate [account_id]` (CHOICE-8); default: the app's account. */
export function register(group: Command): void {
  for (const action of ['suspend', 'reinstate'] as const) {
    group
      .command(`${action} [account_id]`)
      .description(action === 'suspend' ? 'suspend an account: its keys get 403 account_suspended' : 'lift an account suspension')
      .action(async (accountId: string | undefined, _flags: object, command: Command) => {
        const ctx = contextOf(command);
        const control = ctx.control();
        const id = accountId ?? (await control.app(await ctx.appId())).account_id;
        const account = await control.accountAction(id, action);
        ctx.print(account, (a) => `${a.id} is ${a.suspended ? `suspended since ${a.suspended_at}` : 'active'}`);
      });
  }
}
