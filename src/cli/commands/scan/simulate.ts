import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { formatDuration, parseDuration } from '../../../clock/duration.js';
import { ApiCallError, ConnectionError } from '../../../client/http.js';
import { secretKeyEnv } from '../../../contract/credentials.js';
import { contextOf, type CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { packagePath } from '../../../util/package-root.js';

export const DEFAULT_RESULT_FILE = packagePath('fixtures', 'results', 'default.json');

interface SimulateFlags {
  user: string;
  outcome: 'completed' | 'failed' | 'abandoned';
  env?: 'test' | 'live';
  key?: string;
  offlineLate?: string;
  count: string;
  result?: string;
  scope: boolean;
  duplicateReport?: boolean;
  uploadRetries: string;
  installation?: string;
  reinstall?: boolean;
  bundleId?: string;
  teamId?: string;
  appVersion: string;
  wait?: boolean;
  timeout: string;
}

function wholeNumber(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UserError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  return n;
}

function readResult(path: string, file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`--result ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--result ${file} is not valid JSON (${(error as Error).message})`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new UserError(`--result ${file} must hold a JSON object (the scan result)`);
  return json as Record<string, unknown>;
}

/**
 * `--wait`: polls the emulator until every delivery of these scans is acknowledged. A delivery
 * that exhausts its attempts, or the timeout, ends it with EXIT.waitFailed and the last status.
 */
async function waitForScanDeliveries(
  ctx: CommandContext,
  scanIds: string[],
  timeoutMs: number,
  json: boolean,
  out: (line: string) => void,
): Promise<void> {
  const { waitForDeliveries } = await import('../../../client/wait.js');
  const control = ctx.control();
  const appId = await ctx.appId();
  const outcome = await waitForDeliveries(control, { scanIds, appId, timeoutMs });
  const acknowledged = outcome.deliveries.filter((d) => d.status === 'succeeded').length;
  if (outcome.ok) {
    if (json) out(JSON.stringify({ event: 'wait', ok: true, acknowledged, deliveries: outcome.deliveries.length }));
    else out(`webhooks: ${acknowledged} deliver${acknowledged === 1 ? 'y' : 'ies'} acknowledged${acknowledged === 0 ? ' (the app has no webhook_url: nothing to deliver)' : ''}`);
    return;
  }
  const last = outcome.reason === 'failed' ? outcome.delivery : outcome.deliveries.find((d) => d.status !== 'succeeded');
  const status = last ? `last status ${last.last_status ?? 'none'}${last.last_error ? `, ${last.last_error}` : ''}` : 'no delivery yet';
  if (json) out(JSON.stringify({ event: 'wait', ok: false, reason: outcome.reason, delivery: last ?? null }));
  const message =
    outcome.reason === 'failed'
      ? `webhook delivery ${last?.id} of event ${last?.event_id} exhausted its attempts (${status})`
      : `timed out after ${formatDuration(timeoutMs)} waiting for webhook deliveries (${acknowledged} of ${outcome.deliveries.length} acknowledged; ${status})`;
  throw new UserError(message, { exitCode: EXIT.waitFailed, hint: 'watch them with `scanctl webhook listen` or `scanctl webhook deliveries`' });
}

/** `scanctl scan simulate`: plays the SDK's device side for one member, step by step. */
export function register(group: Command): void {
  group
    .command('simulate')
    .description('play the SDK: mint a session, enroll the installation, get the model and its key, report the scan, upload the result')
    .requiredOption('--user <ref>', "the member's host_user_ref (your own stable id of the person)")
    .addOption(new Option('--outcome <outcome>', 'how the scan ends').choices(['completed', 'failed', 'abandoned']).default('completed'))
    .addOption(new Option('--env <env>', "which secret key mints the session (default: test, or --key's)").choices(['test', 'live']))
    .option('--key <key>', 'secret key that mints the sessions (env SCANCTL_SECRET_KEY; default: the fixture key of --env)')
    .option('--offline-late <duration>', 'the scan happened offline this long ago (e.g. 2h, 3d) and syncs now with a fresh token')
    .option('--count <n>', 'how many scans (one session token each)', '1')
    .option('--result <file>', 'the scan result JSON to upload (default: the bundled fixtures/results/default.json)')
    .option('--no-scope', 'mint without scan.create, to see 403 insufficient_scope')
    .option('--duplicate-report', 'report each outcome and upload each result twice, as a device whose acknowledgement was lost')
    .option('--upload-retries <n>', 'retries of a result upload that failed transiently (5xx, 429, network)', '2')
    .option('--installation <id>', 'an installation the device already has (enrolled once; survives app updates)')
    .option('--reinstall', 'the app was reinstalled: the installation enrolls again')
    .option('--bundle-id <id>', "the shipped app's bundle identifier (default: the app's), to see attestation_invalid")
    .option('--team-id <id>', "the shipped app's team identifier (default: the app's), to see attestation_invalid")
    .option('--app-version <version>', 'the app version the installation reports', '1.0.0')
    .option('--wait', "return only when every webhook delivery of these scans is acknowledged (exit 5 if one is exhausted or the timeout passes)")
    .option('--timeout <duration>', 'with --wait: how long to wait, in real time', '30s')
    .action(async (flags: SimulateFlags, command: Command) => {
      const ctx = contextOf(command);
      const json = ctx.json;
      const count = wholeNumber(flags.count, '--count', 1, 10_000);
      const uploadRetries = wholeNumber(flags.uploadRetries, '--upload-retries', 0, 20);
      let offlineLateMs: number | null = null;
      if (flags.offlineLate !== undefined) {
        offlineLateMs = parseDuration(flags.offlineLate);
        if (offlineLateMs === null || offlineLateMs <= 0) throw new UserError(`--offline-late must be a duration such as 90m, 2h or 3d, not "${flags.offlineLate}"`);
      }
      if (flags.installation !== undefined && !/^[A-Za-z0-9._:-]{1,100}$/.test(flags.installation)) {
        throw new UserError('--installation must be 1 to 100 characters of A-Z a-z 0-9 . _ : -');
      }
      const result = readResult(flags.result === undefined ? DEFAULT_RESULT_FILE : ctx.path(flags.result), flags.result ?? DEFAULT_RESULT_FILE);
      const timeoutMs = parseDuration(flags.timeout);
      if (timeoutMs === null || timeoutMs <= 0) throw new UserError(`--timeout must be a duration such as 30s or 5m, not "${flags.timeout}"`);

      const baseUrl = ctx.baseUrl;
      const explicitKey = flags.key ?? ctx.io.env.SCANCTL_SECRET_KEY;
      const keyEnv = explicitKey ? secretKeyEnv(explicitKey) : null;
      if (flags.env && keyEnv && flags.env !== keyEnv) {
        throw new UserError(`--env ${flags.env} contradicts the ${keyEnv} key given: the environment is fixed by the key`);
      }
      const env = flags.env ?? keyEnv ?? 'test';
      const secretKey = await ctx.secretKey(flags.key, env);
      let bundleId = flags.bundleId;
      let teamId = flags.teamId;
      if (bundleId === undefined || teamId === undefined) {
        // The real SDK reads them from the app binary; locally they come from the app's portal settings.
        const control = ctx.control();
        const app = await control.app(await ctx.appId());
        bundleId ??= app.bundle_id;
        teamId ??= app.team_id;
      }

      const { simulate, SimulationError } = await import('../../../sdk/simulate.js');
      const { renderScanLine, renderStep, renderTotals } = await import('./render.js');
      const { isInteractive, ProgressBar } = await import('../../progress.js');
      const out = (line: string) => ctx.out(line);
      const bar = !json && count > 1 && isInteractive(ctx.io.stdout, ctx.io.env) ? new ProgressBar(ctx.io.stdout, count) : null;
      let finished = 0;

      let summaries;
      try {
        summaries = await simulate(
          {
            baseUrl,
            fetch: ctx.io.fetch,
            secretKey,
            hostUserRef: flags.user,
            outcome: flags.outcome,
            count,
            offlineLateMs,
            result,
            noScope: flags.scope === false,
            duplicateReport: Boolean(flags.duplicateReport),
            uploadRetries,
            installationId: flags.installation ?? null,
            reinstall: Boolean(flags.reinstall),
            bundleId,
            teamId,
            appVersion: flags.appVersion,
          },
          (event) => {
            if (json) {
              if (event.type === 'scan') out(JSON.stringify(event.summary));
              return;
            }
            if (count === 1) {
              if (event.type === 'step') out(renderStep(event.step));
              return;
            }
            if (event.type !== 'scan') return;
            finished += 1;
            if (bar) bar.update(finished, event.summary.refusal ? event.summary.refusal.code : (event.summary.scan_id ?? ''));
            else out(renderScanLine(event.summary, count));
          },
        );
      } catch (error) {
        bar?.done();
        if (!(error instanceof SimulationError)) throw error;
        const cause = error.error;
        if (json && error.summary) out(JSON.stringify({ ...error.summary, error: { step: error.step, message: (cause as Error).message } }));
        const detail =
          cause instanceof ApiCallError && cause.error
            ? `${cause.method} ${cause.path}: ${cause.status} ${cause.error.code}: ${cause.error.message}`
            : (cause as Error).message;
        throw new UserError(`scan simulate failed at step ${error.step}: ${detail}`, {
          exitCode: cause instanceof ConnectionError ? EXIT.connection : EXIT.api,
          ...(cause instanceof ConnectionError ? { hint: 'start the emulator with `scanctl serve`, or pass --base-url' } : {}),
        });
      }
      bar?.done();
      if (!json) {
        if (count > 1) out(renderTotals(summaries));
        const ids = summaries.find((s) => s.state === 'recorded');
        if (ids) out(`find it again: scanctl scans list --user ${flags.user}   (installation ${ids.installation_id})`);
      }
      if (flags.wait) {
        const scanIds = summaries.filter((s) => s.state === 'recorded' && s.scan_id).map((s) => s.scan_id!);
        await waitForScanDeliveries(ctx, scanIds, timeoutMs, json, out);
      }
    });
}
