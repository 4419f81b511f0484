import type { Command } from 'commander';

/** scanctl device block|unblock INSTALLATION (issue 3). */
export function register(group: Command): void {
  void group;
}
