import { Option, type Command } from 'commander';
import type { StreamEnd, StreamNotice } from '../../../client/webhook-stream.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../contract/webhooks.js';
import type { WebhookStreamEvent } from '../../../contract/webhook-stream.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { waitForInterrupt } from '../../io.js';
import { httpUrl } from '../../http-url.js';
import { eventTypes } from '../../parse-contract-options.js';
import { attemptLine } from './format.js';
import { streamEndError } from './listen-end.js';

interface ListenFlags {
  forward?: string;
  events?: WebhookEventType[];
  printSecret?: boolean;
}

type StreamItem = WebhookStreamEvent | StreamNotice;

const HELP = `
On a terminal, listen opens a live view: the app's deliveries and their retries as they happen
from when it started (\`webhook deliveries\` lists earlier ones), newest first, with the emulator's
clock (it can be days ahead of real time) and exhausted deliveries marked EXHAUSTED. Keys:
  up/down, j/k    pick a delivery: it stays selected as new ones arrive (until then the
                  selection follows the newest)
  pgup/pgdn       a page up or down; G the oldest; g back to following the newest
  enter           its detail: headers, the exact body, each attempt with the receiver's answer
                  (up/down, pgup/pgdn scroll it; nothing is cut)
  r               resend the selected delivery's event (same event id, same bytes)
  esc             back to the list
  q, ctrl+c       quit

Off a terminal (piped), or with --json, it prints a line per finished attempt instead (with
--json one JSON object per line; every object has an \`object\` field: listener.ready,
delivery.attempt_finished, listener.replaced, listener.ended).

An app has one listener: a later \`webhook listen --forward\` for the same app replaces this one,
which says so and exits 7. A \`state reset\` or \`state import\` keeps it attached while its app
remains and signs with the same secret; otherwise listen says why and exits 8. When the emulator
stops, listen says so and exits 4.

Examples:
  scanctl webhook listen --forward http://localhost:3000/webhooks
  scanctl webhook listen --forward http://localhost:3000/webhooks --events scan.completed,scan.failed
  export WHSEC=$(scanctl webhook listen --print-secret)`;

export function registerListen(group: Command): void {
  group
    .command('listen')
    .description(
      "forward the app's signed deliveries to a local URL while this runs, in a live view on a terminal; prints the signing secret",
    )
    .addOption(
      new Option('--forward <url>', 'where deliveries go while this runs (even when the app has no webhook_url)').argParser(httpUrl),
    )
    .addOption(
      new Option(
        '--events <types>',
        `only these event types are forwarded and shown, comma-separated (${WEBHOOK_EVENT_TYPES.join(', ')})`,
      ).argParser(eventTypes),
    )
    .option('--print-secret', 'print only the whsec_ signing secret and exit (for CI)')
    .addHelpText('after', HELP)
    .action(async (flags: ListenFlags, command: Command) => {
      const ctx = contextOf(command);
      const json = ctx.json;
      const events = flags.events ?? null;
      const control = ctx.control();
      const appId = await ctx.appId();
      const { webhook_secret: secret } = await control.signingSecret(appId);
      if (!secret) throw new UserError(`the emulator issued no signing secret for ${appId}`);
      if (flags.printSecret) {
        ctx.printLine({ object: 'webhook_secret', app_id: appId, webhook_secret: secret }, secret);
        return;
      }
      const { openDeliveryStream } = await import('../../../client/webhook-stream.js');
      const tty = Boolean(ctx.io.stdout.isTTY && ctx.io.stdin.isTTY) && !json;
      const subscribers = new Set<(e: StreamItem) => void>();
      const stream = await openDeliveryStream(
        control.baseUrl,
        { appId, forward: flags.forward, events: events ?? undefined },
        (e) => {
          for (const s of subscribers) s(e);
        },
        ctx.http,
      );
      const target = flags.forward ?? stream.ready.effective_url;
      // The listener this one took over says so and exits 7; this one says it too.
      const replaced = stream.ready.replaced.map(
        (l) => `replaced the \`webhook listen\` ${l.id} that forwarded ${appId}'s deliveries to ${l.forward_url} since ${l.created_at}`,
      );
      let end: StreamEnd | null = null;
      const ended = stream.done.then((e) => (end = e));
      try {
        if (tty) {
          for (const line of replaced) ctx.io.stderr.write(`scanctl: ${line}\n`);
          const { renderListen } = await import('../../../tui/render.js');
          await renderListen(ctx.io, {
            appId,
            forwardUrl: target,
            secret,
            events,
            subscribe: (fn) => {
              const only = (e: StreamItem) => void (e.object !== 'listener.replaced' && e.object !== 'listener.ended' && fn(e));
              subscribers.add(only);
              return () => void subscribers.delete(only);
            },
            resend: async (eventId) => void (await control.resendEvent(eventId)),
            loadDetail: (deliveryId) => control.delivery(deliveryId),
            readClock: async () => (await control.clock()).now,
            emulatorTime: stream.ready.emulator_time,
            closed: ended,
          });
        } else {
          if (json) {
            const ready = {
              object: 'listener.ready',
              app_id: appId,
              forward_url: target,
              events,
              webhook_secret: secret,
              emulator_time: stream.ready.emulator_time,
              replaced: stream.ready.replaced,
            };
            ctx.out(JSON.stringify(ready));
          } else {
            ctx.out(
              `Ready: deliveries of ${appId}${events ? ` (${events.join(', ')})` : ''} go to ${target ?? 'nowhere (no webhook_url; pass --forward URL)'}`,
            );
            ctx.out(`Signing secret: ${secret}`);
            for (const line of replaced) ctx.out(`Note: ${line}`);
          }
          subscribers.add((e) => {
            if (e.object === 'delivery.attempt_finished') ctx.printLine(e, attemptLine(e));
            else if ((e.object === 'listener.replaced' || e.object === 'listener.ended') && json) ctx.out(JSON.stringify(e));
          });
          await Promise.race([waitForInterrupt(ctx.io), ended]);
        }
      } finally {
        stream.close();
      }
      const error = end ? streamEndError(end) : null;
      if (error) throw error;
    });
}
