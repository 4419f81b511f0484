import type { Account } from '../../contract/control.js';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import type { AccountRow } from '../../store/tables/accounts.js';
import { implement } from '../http/implement.js';

function accountView(row: AccountRow): Account {
  return {
    id: row.id,
    object: 'account',
    suspended: row.suspended === 1,
    suspended_at: row.suspended_at === null ? null : toIso(row.suspended_at),
  };
}

/** Accounts (CHOICE-8): suspension and reinstatement, the portal's side (AUTH-7). */
export const accountRoutes = [
  implement(OPS.listAccounts)(({ ctx }) => ({ status: 200, body: { object: 'list', data: ctx.store.accounts.all().map(accountView) } })),
  ...(['suspend', 'reinstate'] as const).map((action) =>
    implement(action === 'suspend' ? OPS.suspendAccount : OPS.reinstateAccount)(({ ctx, account }) => {
      ctx.store.accounts.setSuspended(account.id, action === 'suspend', ctx.clock.now());
      return { status: 200, body: accountView(ctx.store.accounts.get(account.id)!) };
    }),
  ),
] as const;
