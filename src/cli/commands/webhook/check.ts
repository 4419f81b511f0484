import type { Command } from 'commander';

/** scanctl webhook check URL (issue 6): receiver conformance. */
export function register(group: Command): void {
  void group;
}
