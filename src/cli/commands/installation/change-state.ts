import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl installation block|unblock INSTALLATION`: a blocked installation's next scan fails to start (DEV-3). */
function installationStateCommand(action: 'block' | 'unblock', description: string) {
  return (group: Command): void => {
    group
      .command(`${action} <installation>`)
      .description(description)
      .action(async (installation: string, _flags: object, command: Command) => {
        const ctx = contextOf(command);
        const view = await ctx.control().installationAction(installation, action);
        ctx.print(view, (i) => `installation ${i.id} is ${i.status}${i.blocked_at ? ` (since ${i.blocked_at})` : ''}`);
      });
  };
}

/** `scanctl installation block` and `unblock`: they differ only in the action. */
export const INSTALLATION_STATE_VERBS = [
  {
    register: installationStateCommand(
      'block',
      'block an installation server-side: its next scan fails to start (403 installation_blocked)',
    ),
  },
  { register: installationStateCommand('unblock', 'lift the block') },
] as const;
