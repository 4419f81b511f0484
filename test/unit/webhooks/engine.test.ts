import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualClock, frozenBase } from '../../../src/clock/clock.js';
import { WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import type { WebhookStreamEvent } from '../../../src/contract/webhook-stream.js';
import { applyFixtures } from '../../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../../src/emulator/fixture-file.js';
import { openDatabase } from '../../../src/store/db.js';
import { createStore } from '../../../src/store/index.js';
import { SecretBox } from '../../../src/util/crypto.js';
import { randomIds } from '../../../src/util/ids.js';
import { createWebhookEngine } from '../../../src/webhooks/engine.js';
import { recordScanEvent } from '../../../src/webhooks/outbox.js';
import type { SendRequest } from '../../../src/webhooks/sender.js';
import { verifySignature } from '../../../src/verify.js';
import { DEMO, FIXTURES_FILE } from '../../helpers/emulator.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The engine on its own: a store, a clock, a secret box, an event sink and a fake sender; no emulator. */
function engineAlone(options: { frozenClock?: boolean; send?: (clock: VirtualClock) => Promise<void> } = {}) {
  const store = createStore(openDatabase(':memory:'));
  const clock = new VirtualClock({ base: frozenBase() });
  const box = SecretBox.random();
  applyFixtures(store, randomIds, box, clock.now(), readFixtures(FIXTURES_FILE));
  const app = store.apps.get(DEMO.appId)!;
  store.apps.updateSettings({ ...app, webhook_url: 'http://127.0.0.1:9/hook', now: clock.now() });
  const sent: SendRequest[] = [];
  const events: WebhookStreamEvent[] = [];
  const warnings: string[] = [];
  const logLines: string[] = [];
  const engine = createWebhookEngine({
    store,
    clock,
    box,
    events: { wanted: () => true, emit: (event) => events.push(event) },
    userAgent: 'scanctl-emulator/test',
    logger: { warn: (message) => warnings.push(message), info: (line) => logLines.push(line), error: () => undefined },
    send: async (request) => {
      sent.push(request);
      await options.send?.(clock);
      return { status: 204, latencyMs: 1, error: null, excerpt: null };
    },
    frozenClock: options.frozenClock,
  });
  const scan = (scanId: string) =>
    recordScanEvent(store, randomIds, clock.now(), {
      type: 'scan.completed',
      appId: DEMO.appId,
      scanId,
      hostUserRef: 'member_1',
      occurredAt: clock.now(),
      modelVersion: 'bodyscan-2026.1',
    });
  return { store, clock, engine, sent, events, scan, warnings, logLines };
}

describe('the webhook engine on its own', () => {
  it('WH-4, WH-6: sends a due delivery, signed, with the event headers, and records the attempt', async () => {
    const { store, engine, sent, events, scan } = engineAlone();
    const eventId = scan('scan_1');
    expect(engine.nextDueAt()).not.toBeNull();
    // The outbox announces a queued delivery once the writer's transaction is over (next turn).
    await new Promise(setImmediate);
    await engine.runDue();
    expect(sent).toHaveLength(1);
    const { headers, body } = sent[0]!;
    expect(verifySignature(body, headers['Service-Signature'], DEMO.webhookSecret)).toBe(true);
    expect(headers).toMatchObject({
      'Service-Event-Id': eventId,
      'Service-Event-Type': 'scan.completed',
      'user-agent': 'scanctl-emulator/test',
    });
    const [delivery] = store.webhooks.deliveries({ event_id: eventId });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status: 204 });
    expect(events.map((e) => [e.object, e.outcome])).toEqual([
      ['delivery.queued', 'pending'],
      ['delivery.attempt_started', 'in_flight'],
      ['delivery.attempt_finished', 'succeeded'],
    ]);
  });

  it("WH-8, CHOICE-68: a send that chaos --duplicate adds is on the stream as a send of its attempt: the finished attempt carries the second send's answer", async () => {
    const { store, clock, engine, sent, events, scan } = engineAlone();
    const now = clock.now();
    store.chaos.upsert({
      app_id: DEMO.appId,
      seed: 1,
      drop_probability: 0,
      duplicate_probability: 1,
      delay_ms: null,
      delay_probability: 0,
      reorder: 0,
      fail_first: 0,
      fail_status: 500,
      created_at: now,
      updated_at: now,
    });
    scan('scan_1');
    await new Promise(setImmediate);
    await engine.runDue();
    expect(sent).toHaveLength(2);
    const finished = events.filter((e) => e.object === 'delivery.attempt_finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({
      attempt: 1,
      status: 204,
      outcome: 'succeeded',
      duplicate_send: { status: 204, latency_ms: 1, error: null, response_excerpt: null },
    });
  });

  it('CHOICE-31: under a frozen clock an attempt takes no time, even when the clock is advanced while it is on the wire', async () => {
    const { store, engine, scan } = engineAlone({ frozenClock: true, send: async (clock) => clock.advance(120_000) });
    const eventId = scan('scan_1');
    await new Promise(setImmediate);
    await engine.runDue();
    const [delivery] = store.webhooks.deliveries({ event_id: eventId });
    expect(store.webhooks.attemptsOf(delivery!.id).map((a) => a.latency_ms)).toEqual([0]);
  });

  it('WH-8: an attempt whose record fails goes back to pending, due after the retry gap, and is made again', async () => {
    const { store, clock, engine, sent, scan, warnings } = engineAlone();
    const printed = vi.spyOn(process, 'emitWarning');
    const eventId = scan('scan_1');
    const insertAttempt = store.webhooks.insertAttempt;
    store.webhooks.insertAttempt = () => {
      throw new Error('disk I/O error');
    };
    await engine.runDue();
    expect(sent).toHaveLength(1);
    // The warning goes to the host's logger; the engine itself prints nothing.
    expect(warnings).toEqual([expect.stringContaining('disk I/O error')]);
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
    const [held] = store.webhooks.deliveries({ event_id: eventId });
    // Not left in flight until the next start: retryable, and the unrecorded attempt is not counted.
    expect(held).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: clock.now() + WEBHOOK_RETRY_GAPS_MS[0]! });
    expect(store.webhooks.attemptsOf(held!.id)).toEqual([]);

    store.webhooks.insertAttempt = insertAttempt;
    clock.advance(WEBHOOK_RETRY_GAPS_MS[0]!);
    await engine.runDue();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['Service-Event-Id']).toBe(eventId);
    expect(store.webhooks.deliveryById(held!.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe('the webhook engine on a full disk (CHOICE-9, issue 28 item 1)', () => {
  it('CHOICE-9: when neither the attempt nor its retry time can be stored, the delivery still waits its retry gap (kept in memory): never sent more often than the schedule allows', async () => {
    // The disk fills while the first attempt is on the wire (claimed, written in flight): from then on every
    // write fails (as on a full disk, where not even the WAL can grow), the store refuses them all.
    let fillDisk = true;
    const { store, clock, engine, sent, scan, logLines } = engineAlone({
      send: () => {
        if (fillDisk) store.db.pragma('query_only = ON');
        fillDisk = false;
        return Promise.resolve();
      },
    });
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const eventId = scan('scan_1');
    await new Promise(setImmediate);
    const db = store.db;
    await engine.runDue();
    expect(sent).toHaveLength(1);
    const dueAgain = clock.now() + WEBHOOK_RETRY_GAPS_MS[0]!;
    // However often the dispatcher looks before the gap has passed, nothing is sent again.
    for (let i = 0; i < 20; i += 1) {
      clock.advance(WEBHOOK_RETRY_GAPS_MS[0]! / 30);
      expect(engine.nextDueAt()).toBe(dueAgain);
      await engine.runDue();
    }
    expect(sent).toHaveLength(1);
    clock.moveTo(dueAgain);
    await engine.runDue();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['Service-Event-Id']).toBe(eventId);
    expect(warnings).not.toHaveBeenCalled();
    // Said once in the host's log, nothing on the process's stderr (an engine never prints).
    expect(logLines.filter((line) => line.startsWith('storage: '))).toHaveLength(1);
    expect(logged).not.toHaveBeenCalled();

    // Space again: the next attempt is recorded and the delivery succeeds.
    db.pragma('query_only = OFF');
    clock.advance(WEBHOOK_RETRY_GAPS_MS[0]!);
    await engine.runDue();
    expect(sent).toHaveLength(3);
    expect(store.webhooks.deliveries({ event_id: eventId })[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});
