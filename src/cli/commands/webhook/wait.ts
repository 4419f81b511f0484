import { Option, type Command } from 'commander';
import { WAIT_UNTIL, type WaitUntil } from '../../../contract/wait.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { duration, wholeNumber } from '../../parse-options.js';

interface WaitFlags {
  scan?: string;
  event?: string;
  user?: string;
  until: WaitUntil;
  attempts?: number;
  timeout: number;
  playRetries?: boolean;
}

/** `scanctl webhook wait`: the test kit's waitForDeliveries on the command line. */
export function register(group: Command): void {
  group
    .command('wait')
    .description(
      "wait until the deliveries of a scan, an event or a member are attempted, acknowledged, exhausted or settled; prints each delivery's attempts; exit 5 if they cannot be, or on timeout",
    )
    .option('--scan <scan_id>', 'the deliveries of this scan')
    .option('--event <event_id>', 'the deliveries of this event (resends included)')
    .option('--user <ref>', "the deliveries of this member's events (host_user_ref)")
    .addOption(
      new Option('--until <state>', 'what every event must reach (counted per event: a resend that succeeded acknowledges it)')
        .choices(WAIT_UNTIL)
        .default('acknowledged'),
    )
    .addOption(
      new Option('--attempts <n>', 'and have made at least this many attempts (default: 1 with --until attempted)').argParser(
        wholeNumber(1, 100),
      ),
    )
    .addOption(new Option('--timeout <duration>', 'how long to wait, in real time').argParser(duration()).default(30_000, '30s'))
    .option(
      '--play-retries',
      "when an attempt failed, move the emulator's clock to the next attempt (no further) instead of waiting for it",
    )
    .addHelpText(
      'after',
      `
Deliveries are written with their scan, so wait after the scan is recorded (scan simulate has
returned): nothing to wait for then means there is none (exit 5, reason none). Exit codes: 0 the
goal was reached; 5 a delivery ended where it cannot be (exhausted while waiting for acknowledged,
acknowledged while waiting for exhausted, ended with fewer attempts than --attempts), no delivery
matched, or the timeout passed; 2 bad flags or a base URL that is not a scanctl emulator.

Examples:
  scanctl webhook wait --scan scn_4fQ2mZ8pL1xR7tYc --play-retries
  scanctl webhook wait --user member_1 --until attempted --json
  scanctl webhook wait --event evt_s7iizFsEHglwMlw8W9ZZ --until exhausted --play-retries`,
    )
    .action(async (flags: WaitFlags, command: Command) => {
      const ctx = contextOf(command);
      const named = [flags.scan && '--scan', flags.event && '--event', flags.user && '--user'].filter(Boolean);
      if (named.length !== 1)
        throw new UserError(
          named.length === 0 ? 'name what to wait for: --scan ID, --event ID or --user REF' : `${named.join(' and ')}: name one of them`,
        );
      const { requireEmulatorFor, reportWait } = await import('./wait-report.js');
      await requireEmulatorFor(ctx, 'webhook wait');
      const { waitForDeliveries, attemptLogs } = await import('../../../client/wait.js');
      const { progressLines } = await import('../../../client/wait-progress.js');
      const control = ctx.control();
      const appId = await ctx.appId();
      const outcome = await waitForDeliveries(control, {
        scanIds: flags.scan ? [flags.scan] : [],
        eventIds: flags.event ? [flags.event] : [],
        userRefs: flags.user ? [flags.user] : [],
        appId,
        until: flags.until,
        attempts: flags.attempts,
        requireAny: true,
        playRetries: Boolean(flags.playRetries),
        timeoutMs: flags.timeout,
        onProgress: ctx.json ? undefined : progressLines((line) => ctx.io.stderr.write(`${line}\n`)),
      });
      await reportWait(ctx, outcome, {
        until: flags.until,
        timeoutMs: flags.timeout,
        log: await attemptLogs(control, outcome.deliveries),
        nothingToWaitFor: () => Promise.resolve('webhooks: nothing to wait for'),
      });
    });
}
