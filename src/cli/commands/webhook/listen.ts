import type { Command } from 'commander';
import type { DeliveryStreamEvent } from '../../../contract/webhooks.js';
import { controlClient, globalOptions, resolveAppId } from '../../context.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { waitForSignal } from '../../signals.js';
import { attemptLine } from './format.js';

interface ListenFlags {
  forward?: string;
  printSecret?: boolean;
}

export function registerListen(group: Command): void {
  group
    .command('listen')
    .description("forward the app's signed deliveries to a local URL while this runs; prints the signing secret")
    .option('--forward <url>', 'where deliveries go while this runs (even when the app has no webhook_url)')
    .option('--print-secret', 'print only the whsec_ signing secret and exit (for CI)')
    .action(async (flags: ListenFlags, command: Command) => {
      const options = globalOptions(command);
      if (flags.forward !== undefined && !isHttpUrl(flags.forward)) throw new UserError(`--forward must be an http(s) URL, not "${flags.forward}"`);
      const control = controlClient(options);
      const appId = await resolveAppId(control, options);
      const { webhook_secret: secret } = await control.signingSecret(appId);
      if (!secret) throw new UserError(`the emulator issued no signing secret for ${appId}`);
      if (flags.printSecret) {
        process.stdout.write(`${secret}\n`);
        return;
      }
      const { openDeliveryStream } = await import('../../../client/webhook-stream.js');
      const tty = Boolean(process.stdout.isTTY && process.stdin.isTTY) && !options.json;
      const subscribers = new Set<(e: DeliveryStreamEvent) => void>();
      const stream = await openDeliveryStream(control.baseUrl, { appId, forward: flags.forward }, (e) => {
        for (const s of subscribers) s(e);
      });
      try {
        if (tty) {
          const { renderListen } = await import('../../../tui/render.js');
          await renderListen({
            appId,
            forwardUrl: flags.forward ?? stream.ready.effective_url,
            secret,
            subscribe: (fn) => (subscribers.add(fn), () => void subscribers.delete(fn)),
            resend: async (eventId) => void (await control.resendEvent(eventId)),
            loadDetail: (deliveryId) => control.delivery(deliveryId),
            closed: stream.done,
          });
          return;
        }
        const json = Boolean(options.json);
        const target = flags.forward ?? stream.ready.effective_url;
        if (json) {
          process.stdout.write(`${JSON.stringify({ object: 'webhook_listen', app_id: appId, forward_url: target, webhook_secret: secret })}\n`);
        } else {
          process.stdout.write(`Ready: deliveries of ${appId} go to ${target ?? 'nowhere (no webhook_url; pass --forward URL)'}\n`);
          process.stdout.write(`Signing secret: ${secret}\n`);
        }
        subscribers.add((e) => {
          if (e.kind !== 'attempt_finished') return;
          process.stdout.write(`${json ? JSON.stringify(e) : attemptLine(e)}\n`);
        });
        const stopped = await Promise.race([waitForSignal().then(() => 'signal' as const), stream.done.then(() => 'closed' as const)]);
        if (stopped === 'closed') {
          throw new UserError('the emulator closed the delivery stream (was it stopped?)', { exitCode: EXIT.connection });
        }
      } finally {
        stream.close();
      }
    });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
