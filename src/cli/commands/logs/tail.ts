import type { Command } from 'commander';

/** scanctl logs tail (issue 6). */
export function register(group: Command): void {
  void group;
}
