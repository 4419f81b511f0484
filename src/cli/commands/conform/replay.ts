import { Argument, Option, type Command } from 'commander';
import type { CassetteExchange } from '../../../contract/conformance.js';
import { SECRET_KEY_PATTERN } from '../../../contract/credentials.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { matching } from '../../parse-options.js';

/** scanctl conform replay CASSETTE: a recording, replayed in order against another target. */
export function register(conform: Command): void {
  conform
    .command('replay')
    .description('replay a `scanctl record` cassette against a target (an emulator) and report where it answers otherwise')
    .addArgument(new Argument('<cassette>', 'the NDJSON file `scanctl record --out` wrote'))
    .addOption(
      new Option(
        '--key <key>',
        "the target's secret key, standing for the cassette's (env SCANCTL_SECRET_KEY; default against an emulator: its test key); one the target answers 401 to stops the replay (exit 2)",
      ).argParser(matching(SECRET_KEY_PATTERN, 'a secret key that starts with sk_test_ or sk_live_')),
    )
    .option('--no-pace', 'send as fast as the target answers, not at the recorded pace')
    .addHelpText(
      'after',
      `\nExit codes: 0 every answer alike, ${EXIT.checkFailed} an answer differs, ${EXIT.usage} a bad cassette (a line that does not parse, or could not be sent as recorded: named; no exchange at all), or a key the target does not know.`,
    )
    .action(async (file: string, flags: { key?: string; pace: boolean }, command: Command) => {
      const ctx = contextOf(command);
      // The schema loads with the command that needs it, not with every command.
      const { CassetteExchange } = await import('../../../contract/conformance.js');
      const { parseJson } = await import('../../../contract/parse-json.js');
      const { unsendable, ReplayRefused } = await import('../../../conform/sendable.js');
      const lines = (await ctx.read(file)).toString('utf8').split('\n');
      const exchanges: CassetteExchange[] = [];
      /** The line of each exchange, by seq: a refusal during the replay names it. */
      const lineOf = new Map<number, number>();
      const baseUrl = ctx.baseUrl;
      // Every line is checked before the first request: a line that could not be sent as recorded is refused, named.
      lines.forEach((line, i) => {
        if (line.trim() === '') return;
        const parsed = parseJson(CassetteExchange, line);
        if (!parsed.ok)
          throw new UserError(`${file}:${i + 1} is not a cassette line (${parsed.stage === 'json' ? 'not JSON' : parsed.message})`);
        const problem = unsendable(parsed.value, baseUrl);
        if (problem) throw new UserError(`${file}:${i + 1} cannot be replayed: ${problem}`);
        exchanges.push(parsed.value);
        lineOf.set(parsed.value.seq, i + 1);
      });
      if (exchanges.length === 0)
        throw new UserError(`${file} holds no exchanges: nothing to replay`, {
          hint: 'a cassette is written by `scanctl record --out`, one exchange a line, as requests pass through it',
        });
      // --key is the parent's option too (conform --key): commander gives it to whichever command it sees first.
      const key = await ctx.secretKey(flags.key ?? command.optsWithGlobals<{ key?: string }>().key);
      const { CassetteReplay } = await import('../../../conform/replay.js');
      const replay = new CassetteReplay({ baseUrl, key, paced: flags.pace, fetch: ctx.io.fetch });
      const report = await replay.replay(exchanges).catch((error: unknown) => {
        if (!(error instanceof ReplayRefused)) throw error;
        const where = error.seq === null ? file : `${file}:${lineOf.get(error.seq) ?? '?'}`;
        throw new UserError(`${where} cannot be replayed: ${error.reason}`, {
          hint: error.seq === null ? 'pass the target’s own secret key with --key (or SCANCTL_SECRET_KEY)' : undefined,
        });
      });
      if (ctx.json) ctx.out(JSON.stringify(report, null, 2));
      else {
        for (const g of report.groups)
          ctx.out(
            `differs  ${g.route}: recorded ${g.recorded}, now ${g.replayed} (${g.aspects.join(', ')}; ${g.count}x, first #${g.first_seq})`,
          );
        ctx.out(`${report.exchanges} exchanges replayed against ${report.target}, ${report.differing} answered otherwise`);
      }
      if (report.differing > 0)
        throw new UserError(`${report.differing} of ${report.exchanges} answers differ`, {
          exitCode: EXIT.checkFailed,
          reportedInOutput: true,
        });
    });
}
