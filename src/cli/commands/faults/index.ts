import type { Command } from 'commander';

/** scanctl faults (issue 6): API fault injection. */
export function register(group: Command): void {
  void group;
}
