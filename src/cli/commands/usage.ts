import { Option, type Command } from 'commander';
import type { UsageList } from '../../contract/device.js';
import { contextOf } from '../context.js';
import { columns } from '../output.js';
import { matching } from '../parse-options.js';

function render(list: UsageList, month?: string): string {
  if (list.data.length === 0) return `no scans recorded${month ? ` in ${month}` : ''} (minting sessions is never a charge)`;
  const rows = list.data.map((u) => [
    u.app_id,
    u.month,
    String(u.monthly_active_users),
    String(u.billable_scans),
    String(u.test_scans),
    String(u.failed_scans),
    String(u.abandoned_scans),
  ]);
  return `${columns(['APP', 'MONTH', 'ACTIVE USERS (BILLED)', 'BILLABLE SCANS', 'TEST SCANS', 'FAILED', 'ABANDONED'], rows)}

Billed unit: distinct host_user_ref with a completed live-key scan, in the UTC month of occurred_at.`;
}

/** `scanctl usage [--month YYYY-MM]`: the billing view per app and month. */
export function register(program: Command): void {
  program
    .command('usage')
    .description('the billing view: monthly active scanning users, billable, test, failed and abandoned scans per app and month')
    .addOption(
      new Option('--month <YYYY-MM>', 'one month (UTC), e.g. 2026-11').argParser(
        matching(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM, e.g. 2026-11'),
      ),
    )
    .action(async (flags: { month?: string }, command: Command) => {
      const ctx = contextOf(command);
      const usage = await ctx.control().usage({ app_id: ctx.options.app, month: flags.month });
      ctx.print(usage, (u) => render(u, flags.month));
    });
}
