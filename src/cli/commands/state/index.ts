import type { Command } from 'commander';

/** scanctl state export|import|reset (issue 6). */
export function register(group: Command): void {
  void group;
}
