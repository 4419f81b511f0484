import type { Command } from 'commander';

/** scanctl usage (issue 3): the billing view. */
export function register(group: Command): void {
  void group;
}
