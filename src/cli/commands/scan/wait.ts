import { formatDuration } from '../../../clock/duration.js';
import type { CommandContext } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/**
 * `--wait`: polls the emulator until every delivery of these scans is acknowledged. A delivery
 * that exhausts its attempts, or the timeout, ends it with EXIT.waitFailed and the last status.
 */
export async function waitForScanDeliveries(ctx: CommandContext, scanIds: string[], timeoutMs: number): Promise<void> {
  const { progressLines, waitForDeliveries } = await import('../../../client/wait.js');
  const control = ctx.control();
  const appId = await ctx.appId();
  // While it waits, plain mode says how the deliveries stand (stderr: stdout stays the result).
  const onProgress = ctx.json ? undefined : progressLines((line) => ctx.io.stderr.write(`${line}\n`));
  const outcome = await waitForDeliveries(control, { scanIds, appId, timeoutMs, onProgress });
  const acknowledged = outcome.deliveries.filter((d) => d.status === 'succeeded').length;
  if (outcome.ok) {
    const human =
      outcome.deliveries.length > 0
        ? `webhooks: ${acknowledged} deliver${acknowledged === 1 ? 'y' : 'ies'} acknowledged`
        : await nothingToWaitFor(ctx, appId, scanIds);
    ctx.printLine({ object: 'wait', ok: true, acknowledged, deliveries: outcome.deliveries.length, reason: null, delivery: null }, human);
    return;
  }
  const last = outcome.reason === 'failed' ? outcome.delivery : outcome.deliveries.find((d) => d.status !== 'succeeded');
  const status = last ? `last status ${last.last_status ?? 'none'}${last.last_error ? `, ${last.last_error}` : ''}` : 'no delivery yet';
  if (ctx.json)
    ctx.out(
      JSON.stringify({
        object: 'wait',
        ok: false,
        acknowledged,
        deliveries: outcome.deliveries.length,
        reason: outcome.reason,
        delivery: last ?? null,
      }),
    );
  const message =
    outcome.reason === 'failed'
      ? `webhook delivery ${last?.id} of event ${last?.event_id} exhausted its attempts (${status})`
      : `timed out after ${formatDuration(timeoutMs)} waiting for webhook deliveries (${acknowledged} of ${outcome.deliveries.length} acknowledged; ${status})`;
  throw new UserError(message, {
    exitCode: EXIT.waitFailed,
    hint: 'watch them with `scanctl webhook listen` or `scanctl webhook deliveries`',
  });
}

/** Why no delivery was made: the app has no webhook_url, or these scans send no event at all. */
async function nothingToWaitFor(ctx: CommandContext, appId: string, scanIds: string[]): Promise<string> {
  if (scanIds.length === 0) return 'webhooks: nothing to wait for (no scan was recorded, so no event is sent)';
  const app = await ctx.control().app(appId);
  if (!app.webhook_url) return 'webhooks: nothing to wait for (the app has no webhook_url: nothing is delivered)';
  return 'webhooks: nothing to wait for (these scans send no event: an abandoned scan sends none)';
}
