import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ControlClient } from '../../../src/client/control.js';
import { readServerSentEvents } from '../../../src/client/sse.js';
import { waitForDeliveries, type WaitTimer } from '../../../src/client/wait.js';
import { progressLines, waitProgress } from '../../../src/client/wait-progress.js';
import { judge } from '../../../src/client/wait-verdict.js';
import type { WebhookDelivery } from '../../../src/contract/webhooks.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import type { Behaviour } from '../../helpers/webhook-receiver.js';
import { cleanupAfterEach, emulatorWithReceiver, recordScan } from '../../helpers/webhook-setup.js';
import { Condition } from '../../helpers/wait.js';

const cleanup = cleanupAfterEach();
const setup = (behaviour: Behaviour = () => 200, options: { url?: boolean } = {}) =>
  emulatorWithReceiver(cleanup, { behaviour, ...options });
const scan = (emu: TestEmulator, scanId: string, hostUserRef = 'member_1') => recordScan(emu, { scanId, hostUserRef });

/** A ControlClient over the in-process app (no socket). */
function controlOf(emu: TestEmulator): ControlClient {
  return {
    deliveries: async (query: Record<string, unknown>) => {
      const qs = new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]): [string, string] => [k, String(v)]),
      );
      return (await emu.call('GET', `/_scanctl/webhooks/deliveries?${qs.toString()}`)).body;
    },
  } as unknown as ControlClient;
}

type Sse = { event: string; data: any };

/**
 * Reads a server-sent event stream as it comes, with the client's own reader (src/client/sse.ts):
 * `next()` the next event, `until(p)` events until p holds of all read so far.
 */
function sseReader(body: ReadableStream<Uint8Array>) {
  const source = body.getReader();
  const events: Sse[] = [];
  const arrived = new Condition();
  let ended = false;
  let read = 0;
  // A stream of our own over the body, so that cancel() can end it while the client's reader holds it.
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await source.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  void readServerSentEvents(new Response(stream), (event) => {
    events.push({ event: event.event, data: JSON.parse(event.data) });
    arrived.notify();
  })
    .catch(() => undefined)
    .finally(() => {
      ended = true;
      arrived.notify();
    });
  const cancel = () => source.cancel();
  return {
    events,
    cancel,
    /** The next event, or null when the stream ended. */
    async next(): Promise<Sse | null> {
      await arrived.until('the next event', () => read < events.length || ended);
      return read < events.length ? events[read++]! : null;
    },
    async until(done: (events: Sse[]) => boolean) {
      await arrived.until('the expected events', () => done(events) || ended);
      read = events.length;
      return { events, cancel };
    },
  };
}

const readSse = (body: ReadableStream<Uint8Array>, until: (events: Sse[]) => boolean) => sseReader(body).until(until);

describe('webhook control plane', () => {
  it('lists deliveries with filters, shows one with its attempts and exact headers and body', async () => {
    let s1Seen = 0;
    const { emu, r } = await setup((_n, d) => (d.body.data.scan_id === 's1' && ++s1Seen === 1 ? 500 : 200));
    const e1 = scan(emu, 's1');
    scan(emu, 's2', 'member_2');
    await emu.advance(30_000);
    await r.waitFor(3);
    const all = await emu.call('GET', '/_scanctl/webhooks/deliveries?app_id=app_demo');
    expect(all.body.data).toHaveLength(2);
    const one = await emu.call('GET', '/_scanctl/webhooks/deliveries?scan_id=s1&status=succeeded');
    expect(one.body.data).toHaveLength(1);
    const detail = await emu.call('GET', `/_scanctl/webhooks/deliveries/${one.body.data[0].id}`);
    expect(detail.body).toMatchObject({ event_id: e1, status: 'succeeded', attempts: 2, max_attempts: 17 });
    expect(detail.body.attempt_log.map((a: any) => a.status)).toEqual([500, 200]);
    expect(detail.body.attempt_log[1].started_at).toBe('2026-11-22T10:00:30.000Z');
    // The detail shows what the receiver got, byte for byte.
    const got = r.received.find((d) => d.body.id === e1)!;
    expect(detail.body.request.body).toBe(got.raw.toString('utf8'));
    expect(detail.body.request.headers['Service-Signature']).toBe(got.headers['service-signature']);
    const bad = await emu.call('GET', '/_scanctl/webhooks/deliveries?status=nope');
    expect(bad.status).toBe(400);
    expect(expectErrorBody(bad.body).param).toBe('status');
    expect((await emu.call('GET', '/_scanctl/webhooks/deliveries/del_nope')).status).toBe(404);
  });

  it('WH-5: resend is a new delivery of the same event: same Service-Event-Id, same bytes', async () => {
    const { emu, r } = await setup();
    const id = scan(emu, 's1');
    await emu.advance(0);
    const res = await emu.call('POST', `/_scanctl/webhooks/events/${id}/resend`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ event_id: id, origin: 'resend', status: 'pending' });
    await emu.advance(0);
    const got = await r.waitFor(2);
    expect(got[1]!.headers['service-event-id']).toBe(id);
    expect(got[1]!.raw.equals(got[0]!.raw)).toBe(true);
    const missing = await emu.call('POST', '/_scanctl/webhooks/events/evt_nope/resend');
    expect(expectErrorBody(missing.body).code).toBe('resource_missing');
  });

  it('the live stream reports attempts; a forward listener is the effective URL while its stream is open', async () => {
    const { emu, r } = await setup(() => 200, { url: false });
    const response = await emu.app.request(`/_scanctl/webhooks/stream?app_id=app_demo&forward=${encodeURIComponent(r.url)}`);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const ready = await readSse(response.body!, (e) => e.length >= 1);
    expect(ready.events[0]).toMatchObject({ event: 'ready', data: { app_id: 'app_demo', effective_url: r.url } });
    expect((await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data).toHaveLength(1);
    // An app with webhook_url null gets deliveries while the listener is attached.
    scan(emu, 's1');
    await emu.advance(0);
    await r.waitFor(1);
    const detached = once(emu.bus, 'listener-detached');
    await ready.cancel();
    // Closed: the override goes away (APP-3 again).
    expect(await detached).toEqual([ready.events[0]!.data.listener.id]);
    expect((await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data).toHaveLength(0);
    const later = scan(emu, 's2');
    expect(emu.store.webhooks.deliveries({ event_id: later })).toHaveLength(0);
  });

  it('the stream carries queued, attempt_started and attempt_finished events with attempt k of 17 and the next attempt time', async () => {
    const { emu } = await setup(() => 503);
    const response = await emu.app.request('/_scanctl/webhooks/stream?app_id=app_demo');
    // Subscribed once `ready` is read; the rest of the stream is read on from the same reader.
    const stream = sseReader(response.body!);
    expect((await stream.next())?.event).toBe('ready');
    scan(emu, 's1');
    await stream.until((e) => e.some((x) => x.data.object === 'delivery.queued'));
    const reader = stream.until((e) => e.filter((x) => x.event === 'delivery').length >= 3);
    await emu.advance(0);
    const { events, cancel } = await reader;
    const kinds = events.filter((e) => e.event === 'delivery').map((e) => e.data.object);
    expect(kinds).toEqual(['delivery.queued', 'delivery.attempt_started', 'delivery.attempt_finished']);
    const finished = events.at(-1)!.data;
    expect(finished).toMatchObject({
      attempt: 1,
      max_attempts: 17,
      status: 503,
      outcome: 'retrying',
      next_attempt_at: '2026-11-22T10:00:30.000Z',
    });
    await cancel();
  });

  it('the signing-secret route returns the existing whsec_ and issues one (once) for an app without', async () => {
    const emu = testEmulator();
    const demo = await emu.call('POST', '/_scanctl/webhooks/signing-secret', { json: { app_id: 'app_demo' } });
    expect(demo.body.webhook_secret).toBe(DEMO.webhookSecret);
    const trial = await emu.call('POST', '/_scanctl/webhooks/signing-secret', { json: { app_id: 'app_trial' } });
    expect(trial.body.webhook_secret).toMatch(/^whsec_/);
    const again = await emu.call('POST', '/_scanctl/webhooks/signing-secret', { json: { app_id: 'app_trial' } });
    expect(again.body.webhook_secret).toBe(trial.body.webhook_secret);
  });
});

/**
 * A wait's real time that moves only when the wait sleeps; each sleep first runs `step`, the world
 * moving on (the emulator's clock advancing, deliveries being made) between two polls.
 */
function steppedTimer(step: (sleep: number) => Promise<void> = async () => undefined): WaitTimer & { slept: () => number } {
  let now = 0;
  let sleeps = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      await step(++sleeps);
    },
    slept: () => sleeps,
  };
}

describe('waitForDeliveries', () => {
  it('returns ok once every delivery of the scans is acknowledged', async () => {
    const { emu } = await setup();
    scan(emu, 's1');
    scan(emu, 's2');
    const timer = steppedTimer(() => emu.advance(0));
    const outcome = await waitForDeliveries(controlOf(emu), { scanIds: ['s1', 's2'], timeoutMs: 5_000, pollMs: 5, timer });
    expect(outcome.ok).toBe(true);
    expect(outcome.deliveries).toHaveLength(2);
    expect(timer.slept()).toBe(1);
  });

  it('reports the exhausted delivery with its last status and error', async () => {
    const { emu } = await setup(() => 500);
    scan(emu, 's1');
    await emu.advance(60 * 3_600_000);
    const outcome = await waitForDeliveries(controlOf(emu), { scanIds: ['s1'], timeoutMs: 1_000, pollMs: 5, timer: steppedTimer() });
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'failed',
      delivery: { status: 'failed', attempts: 17, last_status: 500, last_error: 'HTTP 500' },
    });
  });

  it('times out (real time) while a delivery is still pending', async () => {
    const { emu } = await setup(() => 500);
    scan(emu, 's1');
    await emu.advance(0);
    const timer = steppedTimer();
    const outcome = await waitForDeliveries(controlOf(emu), { scanIds: ['s1'], timeoutMs: 50, pollMs: 5, timer });
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(timer.now()).toBe(50);
  });

  it('says how the wait stands each time it changes: delivered, retrying, the next attempt on the emulator clock', async () => {
    const { emu } = await setup((n) => (n === 1 ? 200 : n <= 3 ? 500 : 200));
    for (const id of ['s1', 's2', 's3']) scan(emu, id);
    const lines: string[] = [];
    const timer = steppedTimer((sleep) => emu.advance(sleep === 1 ? 0 : 30_000));
    const outcome = await waitForDeliveries(controlOf(emu), {
      scanIds: ['s1', 's2', 's3'],
      timeoutMs: 5_000,
      pollMs: 5,
      timer,
      onProgress: progressLines((l) => lines.push(l)),
    });
    expect(outcome.ok).toBe(true);
    expect(lines).toEqual([
      'waiting for 3 deliveries (0 delivered, 3 queued)',
      'waiting for 3 deliveries (1 delivered, 2 retrying, next attempt 10:00:30 on the emulator clock)',
    ]);
    expect(waitProgress([])).toBe('waiting for 0 deliveries (0 delivered)');
  });

  it('an event whose first delivery failed but whose resend succeeded counts as acknowledged', () => {
    const d = (id: string, status: WebhookDelivery['status']) => ({ id, event_id: 'evt_1', status }) as WebhookDelivery;
    const goal = { until: 'acknowledged', attempts: 0, requireAny: false } as const;
    expect(judge([d('a', 'failed'), d('b', 'succeeded')], goal)).toMatchObject({ ok: true });
    expect(judge([d('a', 'failed'), d('b', 'pending')], goal)).toBeNull();
    expect(judge([d('a', 'failed')], goal)).toMatchObject({ ok: false, reason: 'failed' });
    expect(judge([], goal)).toMatchObject({ ok: true });
  });
});
