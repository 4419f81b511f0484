import type { Command } from 'commander';

/** scanctl webhook chaos (issue 6): seeded delivery chaos. */
export function register(group: Command): void {
  void group;
}
