import { Argument, type Command } from 'commander';
import type { Snapshot } from '../../../contract/conformance.js';
import { contextOf, type CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { green, red, yellow } from '../../style.js';

/** A snapshot file, checked against its schema (loaded with the command that needs it). */
async function readSnapshot(ctx: CommandContext, file: string): Promise<Snapshot> {
  const { Snapshot } = await import('../../../contract/conformance.js');
  const { parseJson } = await import('../../../contract/parse-json.js');
  const parsed = parseJson(Snapshot, (await ctx.read(file)).toString('utf8'));
  if (!parsed.ok) throw new UserError(`${file} is not a conform snapshot (${parsed.stage === 'json' ? 'not JSON' : parsed.message})`);
  return parsed.value;
}

/** scanctl conform diff A B: two snapshots, rule by rule. */
export function register(conform: Command): void {
  conform
    .command('diff')
    .description('compare two `conform --snapshot` files rule by rule (exit 6 when a rule differs)')
    .addArgument(new Argument('<a>', 'a snapshot (e.g. recorded against the service)'))
    .addArgument(new Argument('<b>', 'another (e.g. of the emulator)'))
    .action(async (a: string, b: string, _flags: object, command: Command) => {
      const ctx = contextOf(command);
      const { diffSnapshots } = await import('../../../conform/snapshot.js');
      const differences = diffSnapshots(await readSnapshot(ctx, a), await readSnapshot(ctx, b));
      const differing = differences.filter((d) => d.state !== 'same');
      if (ctx.json) ctx.out(JSON.stringify({ object: 'conform_diff', a, b, differing: differing.length, rules: differences }, null, 2));
      else {
        for (const d of differences)
          ctx.out(
            `${d.state === 'same' ? green('same    ') : d.state === 'differs' ? red('differs ') : yellow(d.state.padEnd(8))}  ${d.rule.padEnd(8)} ${d.detail}`,
          );
        ctx.out(`\n${differences.length - differing.length} same, ${differing.length} differ`);
      }
      if (differing.length > 0)
        throw new UserError(`${differing.length} rules differ: ${differing.map((d) => d.rule).join(', ')}`, {
          exitCode: EXIT.checkFailed,
          reportedInOutput: true,
        });
    });
}
