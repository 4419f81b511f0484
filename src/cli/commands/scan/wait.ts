import type { CommandContext } from '../../context.js';

/**
 * `--wait`: polls the emulator until every delivery of these scans is acknowledged; with
 * `--play-retries` a retry due later on the emulator's clock is played by moving the clock to it.
 * A delivery that exhausts its attempts, or the timeout, ends it with EXIT.waitFailed.
 */
export async function waitForScanDeliveries(
  ctx: CommandContext,
  scanIds: string[],
  options: { timeoutMs: number; playRetries: boolean },
): Promise<void> {
  const { waitForDeliveries, attemptLogs } = await import('../../../client/wait.js');
  const { progressLines } = await import('../../../client/wait-progress.js');
  const { reportWait } = await import('../webhook/wait-report.js');
  const control = ctx.control();
  const appId = await ctx.appId();
  // While it waits, plain mode says how the deliveries stand (stderr: stdout stays the result).
  const onProgress = ctx.json ? undefined : progressLines((line) => ctx.io.stderr.write(`${line}\n`));
  const outcome = await waitForDeliveries(control, {
    scanIds,
    appId,
    timeoutMs: options.timeoutMs,
    onProgress,
    playRetries: options.playRetries,
  });
  await reportWait(ctx, outcome, {
    until: 'acknowledged',
    timeoutMs: options.timeoutMs,
    log: options.playRetries ? await attemptLogs(control, outcome.deliveries) : null,
    nothingToWaitFor: () => nothingToWaitFor(ctx, appId, scanIds),
  });
}

/** Why no delivery was made: the app has no webhook_url, or these scans send no event at all. */
async function nothingToWaitFor(ctx: CommandContext, appId: string, scanIds: string[]): Promise<string> {
  if (scanIds.length === 0) return 'webhooks: nothing to wait for (no scan was recorded, so no event is sent)';
  const app = await ctx.control().app(appId);
  if (!app.webhook_url) return 'webhooks: nothing to wait for (the app has no webhook_url: nothing is delivered)';
  return 'webhooks: nothing to wait for (these scans send no event: an abandoned scan sends none)';
}
