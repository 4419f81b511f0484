import { Option, type Command } from 'commander';
import { ApiCallError, ConnectionError } from '../../../client/http.js';
import { secretKeyEnv } from '../../../contract/credentials.js';
import { SCAN_OUTCOMES } from '../../../contract/device.js';
import type { ScanSummary } from '../../../sdk/simulate-events.js';
import {
  DEFAULT_RESULT_FILE,
  shippedIdentifiers,
  SIMULATE_DEFAULTS,
  toSimulateOptions,
  type SimulateChoices,
} from '../../../sdk/simulate-options.js';
import { contextOf, type CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { duration, matching, wholeNumber } from '../../parse-options.js';
import { errorMessage } from '../../../util/caught.js';

/** The shared choices, and what only the command line has: a result file, a count, waiting. */
interface SimulateFlags extends SimulateChoices {
  /** Parsed to ms by its option's parser. */
  offlineLate?: number;
  count: number;
  result?: string;
  wait?: boolean;
  playRetries?: boolean;
  timeout: number;
}

/** --result FILE (the packaged result when not given): a JSON object, checked with the upload's own schema. */
async function readResult(ctx: CommandContext, file: string | undefined): Promise<Record<string, unknown>> {
  const name = file ?? DEFAULT_RESULT_FILE;
  const text = (await ctx.read(ctx.path(name), `--result ${name}`)).toString('utf8');
  const { ScanResult } = await import('../../../contract/device.js');
  const { parseJson } = await import('../../../contract/parse-json.js');
  const parsed = parseJson(ScanResult, text);
  if (parsed.ok) return parsed.value;
  if (parsed.stage === 'json') throw new UserError(`--result ${name} is not valid JSON (${parsed.message})`);
  const input = parsed.input;
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new UserError(`--result ${name} must hold a JSON object (the scan result)`);
  throw new UserError(`--result ${name} is not a scan result: ${parsed.message}`);
}

/** `scanctl scan simulate`: plays the SDK's device side for one member, step by step. */
export function register(group: Command): void {
  group
    .command('simulate')
    .description('play the SDK: mint a session, enroll the installation, get the model and its key, report the scan, upload the result')
    .requiredOption('--user <ref>', "the member's host_user_ref (your own stable id of the person)")
    .addOption(new Option('--outcome <outcome>', 'how the scan ends').choices(SCAN_OUTCOMES).default(SIMULATE_DEFAULTS.outcome))
    .addOption(new Option('--env <env>', "which secret key mints the session (default: test, or --key's)").choices(['test', 'live']))
    .option('--key <key>', 'secret key that mints the sessions (env SCANCTL_SECRET_KEY; default: the fixture key of --env)')
    .addOption(
      new Option(
        '--offline-late <duration>',
        'the scan happened offline this long ago (e.g. 2h, 3d) and syncs now with a fresh token',
      ).argParser(duration()),
    )
    .addOption(new Option('--count <n>', 'how many scans (one session token each)').argParser(wholeNumber(1, 10_000)).default(1))
    .option('--result <file>', 'the scan result JSON to upload (default: the bundled fixtures/results/default.json)')
    .option('--no-scope', 'mint without scan.create, to see 403 insufficient_scope')
    .option('--duplicate-report', 'report each outcome and upload each result twice, as a device whose acknowledgement was lost')
    .addOption(
      new Option('--upload-retries <n>', 'retries of a result upload that failed transiently (5xx, 429, network)')
        .argParser(wholeNumber(0, 20))
        .default(SIMULATE_DEFAULTS.uploadRetries),
    )
    .addOption(
      new Option('--installation <id>', 'an installation the device already has (enrolled once; survives app updates)').argParser(
        matching(/^[A-Za-z0-9._:-]{1,100}$/, '1 to 100 characters of A-Z a-z 0-9 . _ : -'),
      ),
    )
    .option('--reinstall', 'the app was reinstalled: the installation enrolls again')
    .option('--bundle-id <id>', "the shipped app's bundle identifier (default: the app's), to see attestation_invalid")
    .option('--team-id <id>', "the shipped app's team identifier (default: the app's), to see attestation_invalid")
    .option('--app-version <version>', 'the app version the installation reports', SIMULATE_DEFAULTS.appVersion)
    .option(
      '--wait',
      'return only when every webhook delivery of these scans is acknowledged (exit 5 if one is exhausted or the timeout passes)',
    )
    .option(
      '--play-retries',
      "with --wait: when an attempt failed, move the emulator's clock to the next attempt (no further) until each delivery is acknowledged or exhausted; prints each delivery's attempts",
    )
    .addOption(
      new Option('--timeout <duration>', 'with --wait: how long to wait, in real time').argParser(duration()).default(30_000, '30s'),
    )
    .action(async (flags: SimulateFlags, command: Command) => {
      const ctx = contextOf(command);
      if (!flags.wait && command.getOptionValueSource('timeout') === 'cli')
        throw new UserError('--timeout applies only with --wait: add --wait, or drop --timeout');
      if (!flags.wait && flags.playRetries) throw new UserError('--play-retries applies only with --wait: add --wait');
      // Before any scan is played: against the real service, nothing may be recorded for a wait that cannot run.
      if (flags.playRetries) await (await import('../webhook/wait-report.js')).requireEmulatorFor(ctx, '--play-retries');
      const result = await readResult(ctx, flags.result);
      const explicitKey = flags.key ?? ctx.io.env.SCANCTL_SECRET_KEY;
      const keyEnv = explicitKey ? secretKeyEnv(explicitKey) : null;
      if (flags.env && keyEnv && flags.env !== keyEnv) {
        throw new UserError(`--env ${flags.env} contradicts the ${keyEnv} key given: the environment is fixed by the key`);
      }
      const env = flags.env ?? keyEnv ?? 'test';
      const secretKey = await ctx.secretKey(flags.key, env);
      const { bundleId, teamId } = await shippedIdentifiers(ctx.control(), () => ctx.appId(), flags);
      const summaries = await play(ctx, flags, { secretKey, result, bundleId, teamId });
      if (flags.wait) {
        const scanIds = summaries.filter((s) => s.state === 'recorded' && s.scan_id).map((s) => s.scan_id!);
        const { waitForScanDeliveries } = await import('./wait.js');
        await waitForScanDeliveries(ctx, scanIds, { timeoutMs: flags.timeout, playRetries: Boolean(flags.playRetries) });
      }
    });
}

/** Runs the simulated SDK and renders what it emits; Ctrl+C stops it between scans, saying how far it got. */
async function play(
  ctx: CommandContext,
  flags: SimulateFlags,
  given: { secretKey: string; result: Record<string, unknown>; bundleId: string; teamId: string },
): Promise<ScanSummary[]> {
  const { simulate, SimulationError } = await import('../../../sdk/simulate.js');
  const { renderScanLine, renderStep, renderTotals } = await import('./render.js');
  const { isInteractive, ProgressBar } = await import('../../progress.js');
  const { json } = ctx;
  const count = flags.count;
  const bar = !json && count > 1 && isInteractive(ctx.io.stdout, ctx.io.env) ? new ProgressBar(ctx.io.stdout, count) : null;
  const interrupt = new AbortController();
  const unlisten = ctx.io.onInterrupt(() => interrupt.abort());
  let finished = 0;
  let summaries: ScanSummary[];
  try {
    summaries = await simulate(
      toSimulateOptions(flags, {
        ...given,
        baseUrl: ctx.baseUrl,
        fetch: ctx.http,
        signal: interrupt.signal,
        count,
        offlineLateMs: flags.offlineLate ?? null,
      }),
      (event) => {
        if (json) {
          if (event.type === 'scan') ctx.out(JSON.stringify(event.summary));
          return;
        }
        if (count === 1) {
          if (event.type === 'step') ctx.out(renderStep(event.step));
          return;
        }
        if (event.type !== 'scan') return;
        finished += 1;
        if (bar) bar.update(finished, event.summary.refusal ? event.summary.refusal.code : (event.summary.scan_id ?? ''));
        else ctx.out(renderScanLine(event.summary, count));
      },
    );
  } catch (error) {
    bar?.done();
    if (!(error instanceof SimulationError)) throw error;
    const cause = error.error;
    if (json && error.summary) ctx.out(JSON.stringify({ ...error.summary, error: { step: error.step, message: errorMessage(cause) } }));
    const detail =
      cause instanceof ApiCallError && cause.error
        ? `${cause.method} ${cause.path}: ${cause.status} ${cause.error.code}: ${cause.error.message}`
        : errorMessage(cause);
    throw new UserError(`scan simulate failed at step ${error.step}: ${detail}`, {
      exitCode: cause instanceof ConnectionError ? EXIT.connection : EXIT.api,
      ...(cause instanceof ConnectionError ? { hint: 'start the emulator with `scanctl serve`, or pass --base-url' } : {}),
    });
  } finally {
    unlisten();
  }
  bar?.done();
  if (!json && count > 1) ctx.out(renderTotals(summaries));
  if (interrupt.signal.aborted && summaries.length < count) {
    throw new UserError(
      `interrupted after ${summaries.length} of ${count} scans (${summaries.filter((s) => s.state === 'recorded').length} recorded)`,
      {
        exitCode: EXIT.interrupted,
        hint: `the recorded ones stay: scanctl scan list --user ${flags.user}`,
      },
    );
  }
  const recorded = summaries.find((s) => s.state === 'recorded');
  if (!json && recorded) ctx.out(`find it again: scanctl scan list --user ${flags.user}   (installation ${recorded.installation_id})`);
  return summaries;
}
