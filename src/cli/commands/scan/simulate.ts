import type { Command } from 'commander';

/** scanctl scan simulate (issue 3): plays the SDK's device side. */
export function register(group: Command): void {
  void group;
}
