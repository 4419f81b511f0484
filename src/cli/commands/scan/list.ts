import { Option, type Command } from 'commander';
import type { ScanList } from '../../../contract/device.js';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';
import { wholeNumber } from '../../parse-options.js';

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

/** `scanctl scan list [--user REF]`: the recorded scans of the app, newest first. */
export function register(group: Command): void {
  group
    .command('list')
    .description('recorded scans of the app, newest first')
    .option('--user <ref>', "only this member's scans (host_user_ref)")
    .addOption(new Option('--limit <n>', 'at most this many (1-1000)').argParser(wholeNumber(1, 1000)).default(100))
    .action(async (flags: { user?: string; limit: number }, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const scans = await control.scans(await ctx.appId(), { host_user_ref: flags.user, limit: flags.limit });
      ctx.print(scans, render);
    });
}
