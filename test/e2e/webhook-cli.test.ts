import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { DEMO } from '../helpers/emulator.js';
import { runCli, startServe } from '../helpers/cli.js';
import { spawnListen } from '../helpers/listen.js';
import { control } from '../helpers/robust.js';
import { playScans } from '../helpers/scans.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const listen = (args: string[]) => spawnListen(args, cleanups);

describe('scanctl webhook (built CLI)', () => {
  it('WH-4: listen --forward --json forwards signed deliveries to the URL of an app without webhook_url, one JSON object per attempt', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const receiver = await startReceiver(DEMO.webhookSecret, (n) => (n === 1 ? 500 : 200));
    cleanups.push(() => receiver.close());
    const l = listen(['--forward', receiver.url, '--json', '--base-url', serve.baseUrl]);
    const [ready] = await l.waitLines(1);
    expect(JSON.parse(ready!)).toMatchObject({
      object: 'listener.ready',
      app_id: DEMO.appId,
      forward_url: receiver.url,
      events: null,
      webhook_secret: DEMO.webhookSecret,
    });

    const [scanId] = await playScans(serve.baseUrl, 1);
    await l.waitLines(2);
    const first = JSON.parse(l.lines[1]!);
    expect(first).toMatchObject({
      object: 'delivery.attempt_finished',
      scan_id: scanId,
      event_type: 'scan.completed',
      attempt: 1,
      max_attempts: 17,
      status: 500,
      outcome: 'retrying',
    });
    await runCli(['clock', 'advance', '30s', '--base-url', serve.baseUrl]);
    await l.waitLines(3);
    expect(JSON.parse(l.lines[2]!)).toMatchObject({ event_id: first.event_id, attempt: 2, status: 200, outcome: 'succeeded' });
    expect(receiver.received.every((d) => d.signatureValid)).toBe(true);
    expect(receiver.received.map((d) => d.headers['service-event-id'])).toEqual([first.event_id, first.event_id]);

    // Ctrl+C: the forward override goes with the stream; the app is back to no webhook_url (APP-3).
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(0);
    // The emulator drops the listener when it sees the stream close; no event announces that, so
    // read the list, one request after another (no sleep), a bounded number of times.
    const readListeners = async () => (await control<{ data: unknown[] }>(serve.baseUrl, '/webhooks/listeners')).data;
    let listeners = await readListeners();
    for (let reads = 0; reads < 1_000 && listeners.length > 0; reads += 1) listeners = await readListeners();
    expect(listeners).toEqual([]);
    await playScans(serve.baseUrl, 1);
    const list = await runCli(['webhook', 'deliveries', '--json', '--base-url', serve.baseUrl]);
    expect(JSON.parse(list.stdout).data).toHaveLength(1);
  });

  it('listen prints one plain line per attempt off a terminal, and --print-secret prints only the secret', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const secret = await runCli(['webhook', 'listen', '--print-secret', '--base-url', serve.baseUrl]);
    expect(secret.code).toBe(0);
    expect(secret.stdout).toBe(`${DEMO.webhookSecret}\n`);
    const receiver = await startReceiver(DEMO.webhookSecret);
    cleanups.push(() => receiver.close());
    const l = listen(['--forward', receiver.url, '--base-url', serve.baseUrl]);
    await l.waitLines(2);
    expect(l.lines[1]).toBe(`Signing secret: ${DEMO.webhookSecret}`);
    const [scanId] = await playScans(serve.baseUrl, 1);
    await l.waitLines(3);
    expect(l.lines[2]).toMatch(new RegExp(`evt_\\w+  scan\\.completed  ${scanId}  attempt 1/17  200  \\d+ ms  succeeded$`));
  });

  it('deliveries, delivery and resend: the resend carries the same event id and bytes', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const receiver = await startReceiver(DEMO.webhookSecret);
    cleanups.push(() => receiver.close());
    await runCli(['app', 'update', '--webhook-url', receiver.url, '--base-url', serve.baseUrl]);
    await playScans(serve.baseUrl, 1);
    await receiver.waitFor(1);
    const eventId = String(receiver.received[0]!.headers['service-event-id']);
    const resend = await runCli(['webhook', 'resend', eventId, '--base-url', serve.baseUrl]);
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stdout).toContain(`resending ${eventId}`);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.headers['service-event-id']).toBe(eventId);
    expect(receiver.received[1]!.raw.equals(receiver.received[0]!.raw)).toBe(true);
    const table = await runCli(['webhook', 'deliveries', '--base-url', serve.baseUrl]);
    expect(table.stdout.split('\n')[0]).toMatch(/^DELIVERY\s+EVENT\s+TYPE\s+SCAN\s+STATUS/);
    const missing = await runCli(['webhook', 'resend', 'evt_nope', '--base-url', serve.baseUrl]);
    expect(missing.code).toBe(EXIT.api);
    expect(missing.stderr).toMatch(/^scanctl: .*resource_missing/);
  });
});
