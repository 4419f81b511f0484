import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { openDeliveryStream, type StreamNotice } from '../../../src/client/webhook-stream.js';
import type { WebhookStreamEvent, WebhookListenerEnded } from '../../../src/contract/webhook-stream.js';
import { streamEndError } from '../../../src/cli/commands/webhook/listen-end.js';
import { EXIT } from '../../../src/cli/exit-codes.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import type { Behaviour } from '../../helpers/webhook-receiver.js';
import { cleanupAfterEach, receiver as receiverFor, recordScan } from '../../helpers/webhook-setup.js';

const cleanup = cleanupAfterEach();
const receiver = (behaviour: Behaviour = () => 200) => receiverFor(cleanup, behaviour);
const scan = (emu: TestEmulator, scanId: string, type: 'scan.completed' | 'scan.failed' = 'scan.completed') =>
  recordScan(emu, { scanId, type });

/** The stream client over the in-process app (no socket). */
const fetchOf = (emu: TestEmulator) => (async (url: string, init?: RequestInit) => emu.app.request(url, init)) as typeof fetch;

async function listen(emu: TestEmulator, options: { forward?: string; events?: Array<'scan.completed' | 'scan.failed'>; appId?: string }) {
  const seen: Array<WebhookStreamEvent | StreamNotice> = [];
  const stream = await openDeliveryStream('http://127.0.0.1', { appId: DEMO.appId, ...options }, (e) => seen.push(e), fetchOf(emu));
  cleanup(() => stream.close());
  return { stream, seen };
}

describe('webhook listeners', () => {
  it('a second listener for the same app replaces the first, which is told at once (who, where, since when) and whose stream ends', async () => {
    const emu = testEmulator();
    const first = await listen(emu, { forward: 'http://127.0.0.1:9/first' });
    const second = await listen(emu, { forward: 'http://127.0.0.1:9/second' });
    const end = await first.stream.done;
    expect(end.reason).toBe('replaced');
    const told = first.seen.at(-1);
    expect(told).toMatchObject({
      object: 'listener.replaced',
      listener_id: first.stream.ready.listener!.id,
      app_id: DEMO.appId,
      replaced_by: {
        id: second.stream.ready.listener!.id,
        forward_url: 'http://127.0.0.1:9/second',
        events: null,
        created_at: '2026-11-22T10:00:00.000Z',
      },
    });
    // One listener per app: only the second is attached.
    const listeners = (await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data;
    expect(listeners.map((l: { forward_url: string }) => l.forward_url)).toEqual(['http://127.0.0.1:9/second']);
    // A stream without --forward takes nothing over.
    const watcher = await listen(emu, {});
    expect(watcher.stream.ready).toMatchObject({
      listener: null,
      effective_url: 'http://127.0.0.1:9/second',
      events: null,
      emulator_time: '2026-11-22T10:00:00.000Z',
    });
    expect((await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data).toHaveLength(1);
  });

  it('--events: only those types are forwarded and streamed; the others go where they would without the listener', async () => {
    const emu = testEmulator();
    const forwarded = await receiver();
    const app = await receiver();
    await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { headers: { cookie: await portalCookie(emu) }, json: { webhook_url: app.url } });
    const { seen, stream } = await listen(emu, { forward: forwarded.url, events: ['scan.failed'] });
    expect(stream.ready.listener).toMatchObject({ events: ['scan.failed'] });
    scan(emu, 's1', 'scan.completed');
    scan(emu, 's2', 'scan.failed');
    await emu.advance(0);
    expect((await forwarded.waitFor(1)).map((d) => d.body.type)).toEqual(['scan.failed']);
    expect((await app.waitFor(1)).map((d) => d.body.type)).toEqual(['scan.completed']);
    expect(seen.filter((e) => e.object === 'delivery.attempt_finished').map((e) => (e as WebhookStreamEvent).event_type)).toEqual([
      'scan.failed',
    ]);
  });

  it('--events: an unknown type is refused with the valid list', async () => {
    const emu = testEmulator();
    const bad = await emu.call('GET', '/_scanctl/webhooks/stream?app_id=app_demo&events=scan.completed,scan.done');
    expect(bad.status).toBe(400);
    const error = expectErrorBody(bad.body);
    expect(error.param).toBe('events');
    expect(error.message).toContain('scan.completed, scan.failed, scan.results_available');
  });

  it('a finished attempt carries the start of the receiver answer', async () => {
    const emu = testEmulator();
    const r = await receiver(() => ({ status: 500, body: '{"error":"db down"}' }));
    const { seen } = await listen(emu, { forward: r.url });
    scan(emu, 's1');
    await emu.advance(0);
    const finished = seen.find((e) => e.object === 'delivery.attempt_finished') as WebhookStreamEvent;
    expect(finished).toMatchObject({ status: 500, outcome: 'retrying', response_excerpt: '{"error":"db down"}' });
  });

  it('when the stream closes the listener is detached, and the end says the client closed it', async () => {
    const emu = testEmulator();
    const { stream } = await listen(emu, { forward: 'http://127.0.0.1:9/hooks' });
    const detached = once(emu.bus, 'listener-detached');
    stream.close();
    expect(await detached).toEqual([stream.ready.listener!.id]);
    expect(await stream.done).toEqual({ reason: 'closed' });
  });

  it('CHOICE-30: a state reset keeps a running listener attached: it still forwards, and app show still names it', async () => {
    const emu = testEmulator();
    const r = await receiver();
    const { stream, seen } = await listen(emu, { forward: r.url });
    const reset = await emu.call('POST', '/_scanctl/state/reset');
    expect(reset.status).toBe(200);
    const listeners = (await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data;
    expect(listeners.map((l: { id: string }) => l.id)).toEqual([stream.ready.listener!.id]);
    scan(emu, 'after_reset');
    await emu.advance(0);
    expect((await r.waitFor(1)).map((d) => d.body.data.scan_id)).toEqual(['after_reset']);
    expect(seen.filter((e) => e.object.startsWith('listener.'))).toEqual([]);
  });

  it('CHOICE-30: an app re-seeded without a signing secret gets back the one its listener printed', async () => {
    const emu = testEmulator();
    const { stream } = await listen(emu, { appId: 'app_trial', forward: 'http://127.0.0.1:9/hooks' });
    const printed = (await emu.call('POST', '/_scanctl/webhooks/signing-secret', { json: { app_id: 'app_trial' } })).body.webhook_secret;
    await emu.call('POST', '/_scanctl/state/reset');
    expect((await emu.call('POST', '/_scanctl/webhooks/signing-secret', { json: { app_id: 'app_trial' } })).body.webhook_secret).toBe(
      printed,
    );
    expect((await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data).toHaveLength(1);
    stream.close();
    expect(await stream.done).toEqual({ reason: 'closed' });
  });

  it('CHOICE-30: an import without the app ends the listener with why, and listen exits 8 with one line', async () => {
    const other = testEmulator({ fixtures: { accounts: [{ id: 'acct_x', suspended: false }], apps: [] } as never });
    const file = await (await other.app.request('/_scanctl/state')).json();
    const emu = testEmulator();
    const { stream, seen } = await listen(emu, { forward: 'http://127.0.0.1:9/hooks' });
    expect((await emu.call('POST', '/_scanctl/state/import', { json: file })).status).toBe(200);
    const end = await stream.done;
    expect(end.reason).toBe('ended');
    expect(seen.at(-1)).toMatchObject({
      object: 'listener.ended',
      listener_id: stream.ready.listener!.id,
      app_id: DEMO.appId,
      reason: 'app_removed',
      cause: 'state_import',
    } satisfies Partial<WebhookListenerEnded>);
    const error = streamEndError(end)!;
    expect(error.exitCode).toBe(EXIT.listenerEnded);
    expect(error.message).toMatch(/^stopped listening: a `state import` at .* \(app_demo no longer exists\)$/);
    expect((await emu.call('GET', '/_scanctl/webhooks/listeners')).body.data).toEqual([]);
  });

  it("CHOICE-30: a state file's listener rows are not imported (they belonged to the run that exported them)", async () => {
    const a = testEmulator();
    await listen(a, { forward: 'http://127.0.0.1:9/a' });
    const file = (await (await a.app.request('/_scanctl/state')).json()) as { tables: Record<string, unknown[]> };
    expect(file.tables.webhook_listeners).toHaveLength(1);
    const b = testEmulator();
    expect((await b.call('POST', '/_scanctl/state/import', { json: file })).status).toBe(200);
    expect((await b.call('GET', '/_scanctl/webhooks/listeners')).body.data).toEqual([]);
  });
});
