import type { Command } from 'commander';
import type { Installation } from '../../../contract/device.js';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';

function render(list: Installation[]): string {
  if (list.length === 0) return 'no installations enrolled';
  const rows = list.map((i) => [i.id, i.status, i.app_version ?? '-', String(i.enrollments), i.enrolled_at, i.last_seen_at]);
  return columns(['INSTALLATION', 'STATUS', 'APP VERSION', 'ENROLLMENTS', 'ENROLLED_AT', 'LAST_SEEN_AT'], rows);
}

/** `scanctl device list|block|unblock INSTALLATION`: a blocked installation's next scan fails to start (DEV-3). */
export function register(group: Command): void {
  group
    .command('list')
    .description("the app's enrolled installations")
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const control = ctx.control();
      const list = await control.installations(await ctx.appId());
      ctx.print(list, (l) => render(l.data));
    });

  for (const [action, description] of [
    ['block', "block an installation server-side: its next scan fails to start (403 installation_blocked)"],
    ['unblock', 'lift the block'],
  ] as const) {
    group
      .command(`${action} <installation>`)
      .description(description)
      .action(async (installation: string, _flags: object, command: Command) => {
        const ctx = contextOf(command);
        const view = await ctx.control().installationAction(installation, action);
        ctx.print(view, (i) => `installation ${i.id} is ${i.status}${i.blocked_at ? ` (since ${i.blocked_at})` : ''}`);
      });
  }
}
