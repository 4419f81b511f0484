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
        "the target's secret key, standing for the cassette's (default against an emulator: its test key)",
      ).argParser(matching(SECRET_KEY_PATTERN, 'a secret key that starts with sk_test_ or sk_live_')),
    )
    .option('--no-pace', 'send as fast as the target answers, not at the recorded pace')
    .addHelpText('after', `\nExit codes: 0 every answer alike, ${EXIT.checkFailed} an answer differs, ${EXIT.usage} a bad cassette.`)
    .action(async (file: string, flags: { key?: string; pace: boolean }, command: Command) => {
      const ctx = contextOf(command);
      // The schema loads with the command that needs it, not with every command.
      const { CassetteExchange } = await import('../../../contract/conformance.js');
      const { parseJson } = await import('../../../contract/parse-json.js');
      const lines = (await ctx.read(file)).toString('utf8').split('\n');
      const exchanges: CassetteExchange[] = [];
      lines.forEach((line, i) => {
        if (line.trim() === '') return;
        const parsed = parseJson(CassetteExchange, line);
        if (!parsed.ok)
          throw new UserError(`${file}:${i + 1} is not a cassette line (${parsed.stage === 'json' ? 'not JSON' : parsed.message})`);
        exchanges.push(parsed.value);
      });
      const key = await ctx.secretKey(flags.key);
      const { CassetteReplay } = await import('../../../conform/replay.js');
      const report = await new CassetteReplay({ baseUrl: ctx.baseUrl, key, paced: flags.pace, fetch: ctx.io.fetch }).replay(exchanges);
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
