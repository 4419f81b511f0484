import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { columns } from '../../output.js';

/** `scanctl faults list`. */
export function register(group: Command): void {
  group
    .command('list')
    .description('the faults, with how often each matched and fired')
    .action(async (_flags: object, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.control().faults();
      ctx.print(list, (l) =>
        l.data.length === 0
          ? 'No faults.'
          : columns(
              ['ID', 'ROUTE', 'ANSWER', 'WHEN', 'FIRED', 'SEED', 'STATE'],
              l.data.map((f) => [
                f.id,
                `${f.method} ${f.path}`,
                `${f.status} ${f.code}`,
                f.probability !== null ? `p=${f.probability}` : f.count !== null ? `${f.remaining}/${f.count} left` : 'always',
                `${f.injected}/${f.matched}`,
                String(f.seed),
                f.active ? 'active' : 'used up',
              ]),
            ),
      );
    });
}
