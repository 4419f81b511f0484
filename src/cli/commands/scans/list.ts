import type { Command } from 'commander';
import type { ScanList } from '../../../contract/device.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { columns } from '../../output.js';

function render(list: ScanList): string {
  if (list.data.length === 0) return 'no scans recorded';
  const rows = list.data.map((s) => [
    s.id,
    s.host_user_ref,
    s.env,
    s.status,
    s.occurred_at ?? `(started ${s.started_at ?? '-'})`,
    s.billable ? 'yes' : 'no',
    String(s.reports),
    s.result_stored ? 'stored' : '-',
    s.installation_id,
  ]);
  return columns(['SCAN', 'USER', 'ENV', 'STATUS', 'OCCURRED_AT', 'BILLABLE', 'REPORTS', 'RESULT', 'INSTALLATION'], rows);
}

/** `scanctl scans list [--user REF]`: the recorded scans of the app, newest first. */
export function register(group: Command): void {
  group
    .command('list')
    .description('recorded scans of the app, newest first')
    .option('--user <ref>', "only this member's scans (host_user_ref)")
    .option('--limit <n>', 'at most this many', '100')
    .action(async (flags: { user?: string; limit: string }, command: Command) => {
      const ctx = contextOf(command);
      const limit = Number(flags.limit);
      if (!/^\d+$/.test(flags.limit) || limit < 1 || limit > 1000) throw new UserError(`--limit must be a whole number from 1 to 1000, not "${flags.limit}"`);
      const control = ctx.control();
      const scans = await control.scans(await ctx.appId(), { host_user_ref: flags.user, limit });
      ctx.print(scans, render);
    });
}
