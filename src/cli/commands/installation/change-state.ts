import type { Command } from 'commander';
import { contextOf } from '../../context.js';

/** `scanctl installation block|unblock INSTALLATION`: a blocked installation's next scan fails to start (DEV-3). */
export function installationStateCommand(action: 'block' | 'unblock', description: string) {
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
