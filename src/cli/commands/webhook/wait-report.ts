import { waitResultOf, type WaitOutcome } from '../../../client/wait.js';
import { formatDuration } from '../../../clock/duration.js';
import type { WebhookDeliveryAttemptLog, WaitUntil } from '../../../contract/wait.js';
import type { CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/** Refuses a wait on the emulator's control plane against a base URL that is not an emulator (one line, exit 2). */
export async function requireEmulatorFor(ctx: CommandContext, what: string): Promise<void> {
  const { requireEmulator, NotAnEmulatorError } = await import('../../../client/wait.js');
  try {
    await requireEmulator(ctx.control());
  } catch (error) {
    if (!(error instanceof NotAnEmulatorError)) throw error;
    throw new UserError(
      `${ctx.baseUrl} is not a scanctl emulator: ${what} needs the emulator's control plane (its deliveries and virtual clock)`,
      {
        hint: 'point --base-url at `scanctl serve` (or run under `scanctl exec`), or leave it out',
      },
    );
  }
}

export interface WaitReportOptions {
  until: WaitUntil;
  timeoutMs: number;
  /** Each delivery's attempts, when the command reports them. */
  log: WebhookDeliveryAttemptLog[] | null;
  /** The human line of a wait that passed with no delivery at all. */
  nothingToWaitFor: () => Promise<string>;
}

/**
 * Prints how a wait for deliveries ended (`scan simulate --wait`, `webhook wait`): under --json one
 * WaitResult line, else a summary line and each delivery's attempt log. A wait that did not succeed
 * ends with EXIT.waitFailed and the decisive delivery's last status.
 */
export async function reportWait(ctx: CommandContext, outcome: WaitOutcome, options: WaitReportOptions): Promise<void> {
  const result = waitResultOf(outcome, options.until, options.log);
  const { acknowledged, delivery: decisive } = result;
  if (ctx.json) ctx.out(JSON.stringify(result));
  else {
    if (outcome.clockMoves.length > 0) ctx.out(clockLine(outcome));
    for (const entry of options.log ?? []) ctx.out(logLines(entry));
  }
  if (outcome.ok) {
    if (!ctx.json)
      ctx.out(
        outcome.deliveries.length > 0
          ? passedLine(options.until, outcome.deliveries.length, acknowledged)
          : await options.nothingToWaitFor(),
      );
    return;
  }
  const status = decisive
    ? `last status ${decisive.last_status ?? 'none'}${decisive.last_error ? `, ${decisive.last_error}` : ''}`
    : 'no delivery yet';
  const n = outcome.deliveries.length;
  const message = {
    failed: `webhook delivery ${decisive?.id} of event ${decisive?.event_id} exhausted its attempts (${status})`,
    unmet: `webhook delivery ${decisive?.id} of event ${decisive?.event_id} ended ${decisive?.status} after ${decisive?.attempts} attempt${decisive?.attempts === 1 ? '' : 's'}: the wait for ${options.until} can no longer be met`,
    timeout: `timed out after ${formatDuration(options.timeoutMs)} waiting for webhook deliveries${options.until === 'acknowledged' ? '' : ` to be ${options.until}`} (${acknowledged} of ${n} acknowledged; ${status})`,
    none: 'no webhook delivery matches: the scan, event or member has none (is the app webhook_url set? was the scan recorded?)',
  }[outcome.reason];
  throw new UserError(message, {
    exitCode: EXIT.waitFailed,
    hint: 'watch them with `scanctl webhook listen` or `scanctl webhook deliveries`',
    reportedInOutput: ctx.json,
  });
}

function passedLine(until: WaitUntil, n: number, acknowledged: number): string {
  const what = `deliver${n === 1 ? 'y' : 'ies'}`;
  return until === 'acknowledged'
    ? `webhooks: ${acknowledged} ${what} acknowledged`
    : `webhooks: ${n} ${what} ${until} (${acknowledged} acknowledged)`;
}

function clockLine(outcome: WaitOutcome): string {
  const moves = outcome.clockMoves;
  const n = moves.length;
  return `clock: moved ${n} time${n === 1 ? '' : 's'} to play retries, from ${moves[0]?.from} to ${moves.at(-1)?.to} (emulator clock)`;
}

/** A delivery and its attempts: number, time on the emulator clock, status or error. */
function logLines(entry: WebhookDeliveryAttemptLog): string {
  const head = `${entry.delivery_id}  ${entry.event_type}  ${entry.scan_id}  ${entry.status} after ${entry.attempts.length} attempt${entry.attempts.length === 1 ? '' : 's'}`;
  const attempts = entry.attempts.map(
    (a) => `  #${a.number}  ${a.started_at}  ${a.status === null ? '---' : a.status}${a.error && a.status === null ? `  ${a.error}` : ''}`,
  );
  return [head, ...attempts].join('\n');
}
