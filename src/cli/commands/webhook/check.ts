import { Argument, Option, type Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { CHOICES } from '../../../contract/choices.js';
import { WEBHOOK_SECRET_PATTERN } from '../../../contract/credentials.js';
import { contextOf } from '../../context.js';
import { appSigningSecret } from './app-secret.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { columns } from '../../output.js';
import { httpUrl } from '../../http-url.js';
import { duration, matching } from '../../parse-options.js';
import { green, red } from '../../style.js';
import { errorMessage, errorCode } from '../../../util/caught.js';

interface CheckFlags {
  secret?: string;
  junit?: string;
  timeout: number;
}

/** An app id for the payloads when no emulator is asked (an explicit --secret and no --app). */
const STANDALONE_APP_ID = 'app_webhook_check';

/** scanctl webhook check URL: receiver conformance. */
export function register(group: Command): void {
  group
    .command('check')
    .description('conformance run against your own webhook receiver: signed events, forgeries, replays, order, unknown fields, answer time')
    .addArgument(new Argument('<url>', "your receiver's URL").argParser(httpUrl))
    .addOption(
      new Option('--secret <whsec>', "the receiver's signing secret (default: the local emulator app's, via --app)").argParser(
        matching(WEBHOOK_SECRET_PATTERN, 'a signing secret that starts with whsec_'),
      ),
    )
    .option('--junit <file>', 'also write the results as JUnit XML, for CI')
    .addOption(
      new Option('--timeout <duration>', 'per-attempt timeout the receiver must answer within, as the service')
        .argParser(duration({ max: 10 * 60_000 }))
        .default(CHOICES.webhookAttemptTimeoutMs, `${CHOICES.webhookAttemptTimeoutMs / 1000}s`),
    )
    .addHelpText(
      'after',
      `\nExit codes: 0 every check passed, ${EXIT.checkFailed} a check failed, ${EXIT.usage} bad flags.\nExample: scanctl webhook check http://127.0.0.1:3000/webhooks --junit webhook-check.xml`,
    )
    .action(async (url: string, flags: CheckFlags, command: Command) => {
      const ctx = contextOf(command);
      const timeoutMs = flags.timeout;
      let secret = flags.secret;
      let appId = ctx.options.app ?? STANDALONE_APP_ID;
      if (secret === undefined) ({ appId, secret } = await appSigningSecret(ctx));

      const { runWebhookCheck } = await import('../../../webhooks/check/run.js');
      const report = await runWebhookCheck({ url, secret, appId, timeoutMs });
      if (flags.junit) {
        const { toJUnit } = await import('../../../webhooks/check/junit.js');
        try {
          writeFileSync(ctx.path(flags.junit), toJUnit(report));
        } catch (error) {
          throw new UserError(`cannot write ${flags.junit}: ${errorCode(error) ?? errorMessage(error)}`);
        }
      }
      if (ctx.json) ctx.io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const rows = report.checks.map((c) => [
          c.passed ? green('pass') : red('fail'),
          c.name,
          c.latency_ms === null ? '-' : `${c.latency_ms} ms`,
          c.reason,
        ]);
        ctx.io.stdout.write(`Webhook receiver ${report.url} (app ${report.app_id})\n\n`);
        ctx.io.stdout.write(`${columns(['RESULT', 'CHECK', 'TIME', 'DETAIL'], rows)}\n\n`);
        ctx.io.stdout.write(`${report.passed} passed, ${report.failed} failed${flags.junit ? ` (JUnit XML: ${flags.junit})` : ''}\n`);
      }
      if (report.failed > 0) {
        const names = report.checks.filter((c) => !c.passed).map((c) => c.id);
        throw new UserError(`${report.failed} of ${report.checks.length} webhook checks failed: ${names.join(', ')}`, {
          exitCode: EXIT.checkFailed,
          reportedInOutput: true,
        });
      }
    });
}
