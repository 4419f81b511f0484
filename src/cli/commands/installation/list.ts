import type { Command } from 'commander';
import type { Installation } from '../../../contract/device.js';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';

function render(list: Installation[]): string {
  if (list.length === 0) return 'no installations enrolled';
  const rows = list.map((i) => [i.id, i.status, i.app_version ?? '-', String(i.enrollments), i.enrolled_at, i.last_seen_at]);
  return columns(['INSTALLATION', 'STATUS', 'APP VERSION', 'ENROLLMENTS', 'ENROLLED_AT', 'LAST_SEEN_AT'], rows);
}

/** `scanctl installation list` (alias `device list`). */
export function register(group: Command): void {
  group
    .command('list')
    .description("the app's enrolled installations")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.control().installations(await ctx.appId());
      ctx.print(list, (l) => render(l.data));
    });
}
