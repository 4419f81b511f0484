import type { Command } from 'commander';

/** scanctl scans list (issue 3). */
export function register(group: Command): void {
  void group;
}
