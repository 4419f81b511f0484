import { Option, type Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { CHOICES } from '../../../contract/choices.js';
import { SECRET_KEY_PATTERN, WEBHOOK_SECRET_PATTERN } from '../../../contract/credentials.js';
import { errorCode, errorMessage } from '../../../util/caught.js';
import { contextOf, type CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { httpUrl } from '../../http-url.js';
import { matching, wholeNumber } from '../../parse-options.js';
import * as conformDiff from './diff.js';
import * as conformReplay from './replay.js';
import { renderOutcome, renderPlan } from './render.js';

interface ConformFlags {
  key?: string;
  allowLive?: boolean;
  billable?: boolean;
  slow?: boolean;
  portalCookie?: string;
  receiverUrl?: string;
  receiverPort?: number;
  webhookSecret?: string;
  bundleId?: string;
  teamId?: string;
  maxRate: number;
  rule?: string[];
  snapshot?: string;
  junit?: string;
}

/** Writes a file the user named; a failure is one line. */
function writeUserFile(ctx: CommandContext, file: string, text: string): void {
  try {
    writeFileSync(ctx.path(file), text);
  } catch (error) {
    throw new UserError(`cannot write ${file}: ${errorCode(error) ?? errorMessage(error)}`);
  }
}

/** scanctl conform: the black-box suite, probe by rule; `conform diff` and `conform replay` are its subcommands. */
export function register(program: Command): void {
  const conform = program
    .command('conform')
    .description('black-box conformance of a target (the real service or an emulator), one probe per rule; see docs/conformance.md')
    .addOption(
      new Option('--key <key>', 'secret key: a test key (env SCANCTL_SECRET_KEY; default against an emulator: its test key)').argParser(
        matching(SECRET_KEY_PATTERN, 'a secret key that starts with sk_test_ (or sk_live_ with --allow-live)'),
      ),
    )
    .option('--allow-live', 'accept a live key (sk_live_): the run then acts on live data')
    .option('--billable', 'report scans (usage on a real account); always on against an emulator')
    .option('--slow', 'without an emulator, wait in real time where a probe needs time (a token expiry: 15 minutes)')
    .option('--portal-cookie <cookie>', "the portal's session cookie (name=value), for PATCH /v1/apps/{app_id}")
    .addOption(
      new Option('--receiver-url <url>', 'a URL the target can reach, forwarded to the receiver this command runs').argParser(httpUrl),
    )
    .addOption(
      new Option('--receiver-port <n>', 'the port the receiver listens on, 127.0.0.1 (default: the receiver URL’s)').argParser(
        wholeNumber(0, 65_535),
      ),
    )
    .addOption(
      new Option('--webhook-secret <whsec>', "the app's signing secret, when the target does not show it").argParser(
        matching(WEBHOOK_SECRET_PATTERN, 'a signing secret that starts with whsec_'),
      ),
    )
    .option('--bundle-id <id>', "the app's bundle identifier (default against an emulator: the app's)")
    .option('--team-id <id>', "the app's team identifier")
    .addOption(
      new Option('--max-rate <n>', 'requests per second to the public routes, at most')
        .argParser(wholeNumber(1, 1_000))
        .default(CHOICES.conformMaxRatePerSecond),
    )
    .option('--rule <id>', 'run only this rule (repeatable)', (value: string, all: string[] = []) => [...all, value])
    .option('--snapshot <file>', 'write a normalized record of every answer (compare two with `conform diff`)')
    .option('--junit <file>', 'also write the outcomes as JUnit XML, for CI')
    .addHelpText(
      'after',
      `\nExit codes: 0 nothing diverges, ${EXIT.checkFailed} a rule diverges, ${EXIT.api} the app's daily quota or the rate limit ran out mid-run (stopped; the line says what to change), ${EXIT.usage} bad flags or a live key without --allow-live.\nExample: scanctl conform --base-url https://api.example.com --key sk_test_... --snapshot service.json`,
    )
    .action(async (flags: ConformFlags, command: Command) => {
      const ctx = contextOf(command);
      const key = await ctx.secretKey(flags.key);
      if (key.startsWith('sk_live_') && !flags.allowLive)
        throw new UserError('refusing a live key: conform creates sessions and scans on the account it runs against', {
          hint: 'use a test key (sk_test_...), or pass --allow-live if you mean it',
        });
      const { runConform } = await import('../../../conform/run.js');
      const { AccountLimitReached } = await import('../../../conform/probe.js');
      if (ctx.json) ctx.io.stderr.write('scanctl conform: running; the report follows on stdout\n');
      const { report, snapshot } = await runConform(
        {
          baseUrl: ctx.baseUrl,
          key,
          appId: ctx.options.app,
          portalCookie: flags.portalCookie,
          receiverUrl: flags.receiverUrl,
          receiverPort: flags.receiverPort,
          webhookSecret: flags.webhookSecret,
          bundleId: flags.bundleId,
          teamId: flags.teamId,
          billable: Boolean(flags.billable),
          slow: Boolean(flags.slow),
          maxRate: flags.maxRate,
          only: flags.rule,
        },
        ctx.json ? {} : { onPlan: (plan) => ctx.out(renderPlan(plan)), onOutcome: (outcome) => ctx.out(renderOutcome(outcome)) },
      ).catch((error: unknown) => {
        // The account's quota or rate limit ran out mid-run: one line, not every later rule as diverging.
        if (error instanceof AccountLimitReached) throw new UserError(error.message, { exitCode: EXIT.api });
        throw error;
      });
      if (flags.snapshot) writeUserFile(ctx, flags.snapshot, `${JSON.stringify(snapshot, null, 2)}\n`);
      if (flags.junit) {
        const { conformJUnit } = await import('../../../conform/junit.js');
        writeUserFile(ctx, flags.junit, conformJUnit(report));
      }
      if (ctx.json) ctx.out(JSON.stringify(report, null, 2));
      else {
        for (const problem of report.cleanup_problems) ctx.io.stderr.write(`scanctl: clean-up: ${problem}\n`);
        ctx.out(`\n${report.passed} pass, ${report.diverged} diverge, ${report.skipped} skipped (${report.requests_sent} requests sent)`);
      }
      if (report.diverged > 0) {
        const rules = report.outcomes.filter((o) => o.verdict === 'diverges').map((o) => o.rule);
        throw new UserError(`${report.diverged} rules diverge: ${rules.join(', ')}`, {
          exitCode: EXIT.checkFailed,
          reportedInOutput: true,
        });
      }
    });
  conformDiff.register(conform);
  conformReplay.register(conform);
}
