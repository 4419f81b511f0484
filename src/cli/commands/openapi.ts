import type { Command } from 'commander';

/** scanctl openapi (issue 5): prints the OpenAPI 3.1 document. */
export function register(group: Command): void {
  void group;
}
