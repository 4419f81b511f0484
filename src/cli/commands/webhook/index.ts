import type { Command } from 'commander';

/** scanctl webhook listen|deliveries|resend|verify (issue 4). */
export function register(group: Command): void {
  void group;
}
