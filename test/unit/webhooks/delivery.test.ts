import { describe, expect, it } from 'vitest';
import { CHOICES, WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import { WebhookEvent } from '../../../src/contract/webhooks.js';
import { verifySignature } from '../../../src/index.js';
import { recordScanEvent, type ScanEventInput } from '../../../src/webhooks/outbox.js';
import { DEMO, portalCookie, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import type { Behaviour, Receiver } from '../../helpers/webhook-receiver.js';
import { cleanupAfterEach, emulatorWithReceiver, receiver as receiverFor, recordScan } from '../../helpers/webhook-setup.js';

const RESULT = {
  modelVersion: 'bodyscan-2026.1',
  measurements: { bodyFatPercent: 18.25, bmi: 23.1, girths: { waistCm: 81.5, hipCm: 97.25 } },
  quality: { score: 0.93 },
};

const cleanup = cleanupAfterEach();
const receiver = (behaviour?: Behaviour, secret?: string): Promise<Receiver> => receiverFor(cleanup, behaviour, secret);
const setup = (options: { behaviour?: Behaviour; results?: boolean; url?: boolean } = {}) => emulatorWithReceiver(cleanup, options);

/** Scans that finished an hour before they were reported, with the result when it is one. */
function scan(emu: TestEmulator, type: ScanEventInput['type'], scanId: string, extra: Partial<ScanEventInput> = {}): string {
  return recordScan(emu, {
    type,
    scanId,
    occurredAt: emu.clock.now() - 3_600_000,
    modelVersion: 'bodyscan-2026.1',
    ...(type === 'scan.results_available' ? { result: RESULT } : {}),
    ...extra,
  });
}

const deliveriesOf = (emu: TestEmulator, eventId: string) => emu.store.webhooks.deliveries({ event_id: eventId });

describe('webhook delivery', () => {
  it('WH-1: a delivery is POST with a JSON body {id, type, created_at, data}', async () => {
    const { emu, r } = await setup();
    const eventId = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(0);
    const [d] = await r.waitFor(1);
    expect(d!.method).toBe('POST');
    expect(d!.headers['content-type']).toBe('application/json');
    expect(Object.keys(d!.body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(d!.body).toMatchObject({ id: eventId, type: 'scan.completed', created_at: '2026-11-22T10:00:00.000Z' });
    expect(WebhookEvent.safeParse(d!.body).success).toBe(true);
  });

  it('WH-2: scan.completed and scan.failed data carry exactly the six fields, never a measurement', async () => {
    const { emu, r } = await setup({ results: true });
    // Even a caller that passes a result cannot put it into a billing record.
    scan(emu, 'scan.completed', 'scan_ok', { result: RESULT });
    scan(emu, 'scan.failed', 'scan_ko', { result: RESULT });
    await emu.advance(0);
    const got = await r.waitFor(2);
    for (const d of got) {
      const status = d.body.type === 'scan.completed' ? 'completed' : 'failed';
      expect(d.body.data).toEqual({
        scan_id: d.body.type === 'scan.completed' ? 'scan_ok' : 'scan_ko',
        app_id: DEMO.appId,
        status,
        occurred_at: '2026-11-22T09:00:00.000Z',
        host_user_ref: 'member_1',
        model_version: 'bodyscan-2026.1',
      });
      expect(d.raw.toString()).not.toMatch(/measurements|bodyFat|waist|result/);
    }
  });

  it('WH-3: scan.results_available carries the result exactly, only with results delivery and a webhook_url, once per stored result', async () => {
    const { emu, r } = await setup({ results: true });
    const first = scan(emu, 'scan.results_available', 'scan_1');
    // A re-upload of the same result is the same event: no second delivery (DEV-8).
    const again = scan(emu, 'scan.results_available', 'scan_1');
    expect(again).toBe(first);
    await emu.advance(0);
    const [d] = await r.waitFor(1);
    expect(d!.body.data.result).toEqual(RESULT);
    expect(d!.body.data).toMatchObject({
      scan_id: 'scan_1',
      app_id: DEMO.appId,
      host_user_ref: 'member_1',
      model_version: 'bodyscan-2026.1',
    });
    await emu.advance(60_000);
    expect(r.received).toHaveLength(1);
    expect(deliveriesOf(emu, first)).toHaveLength(1);

    // Without results delivery, no result is ever recorded, not even in the outbox.
    const off = await setup({ results: false });
    expect(() => scan(off.emu, 'scan.results_available', 'scan_2')).toThrow(/results delivery/);
    expect(off.emu.store.db.prepare("SELECT count(*) AS n FROM events WHERE type = 'scan.results_available'").get()).toEqual({ n: 0 });
  });

  it('WH-4: Service-Signature is the hex HMAC-SHA256 of the raw body keyed with the whsec_ secret', async () => {
    const { emu, r } = await setup();
    scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(0);
    const [d] = await r.waitFor(1);
    expect(d!.signatureValid).toBe(true);
    expect(d!.headers['service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(d!.raw, String(d!.headers['service-signature']), DEMO.webhookSecret)).toBe(true);
    expect(() => verifySignature(d!.raw, String(d!.headers['service-signature']), 'whsec_other')).toThrow(/does not match/);
  });

  it('WH-5: Service-Event-Id is stable across retries and equals the body id', async () => {
    const { emu, r } = await setup({ behaviour: (n) => (n < 3 ? 503 : 200) });
    const eventId = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(10 * 60_000);
    const got = await r.waitFor(3);
    expect(got.map((d) => d.headers['service-event-id'])).toEqual([eventId, eventId, eventId]);
    expect(got.map((d) => d.body.id)).toEqual([eventId, eventId, eventId]);
    // The same bytes every time: serialized once, at creation.
    expect(new Set(got.map((d) => d.raw.toString('hex'))).size).toBe(1);
    expect(deliveriesOf(emu, eventId)[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
  });

  it('WH-6: Service-Event-Type equals type in the body, for all three types', async () => {
    const { emu, r } = await setup({ results: true });
    scan(emu, 'scan.completed', 'scan_1');
    scan(emu, 'scan.results_available', 'scan_1');
    scan(emu, 'scan.failed', 'scan_2');
    await emu.advance(0);
    const got = await r.waitFor(3);
    expect(got.map((d) => d.headers['service-event-type']).sort()).toEqual(['scan.completed', 'scan.failed', 'scan.results_available']);
    for (const d of got) expect(d.headers['service-event-type']).toBe(d.body.type);
  });

  it('WH-7: any 2xx acknowledges; 3xx (not followed), 4xx, 5xx, reset and timeout are retried', async () => {
    const elsewhere = await receiver();
    for (const status of [200, 201, 202, 204, 299]) {
      const { emu, r } = await setup({ behaviour: () => status });
      const id = scan(emu, 'scan.completed', `scan_${status}`);
      await emu.advance(0);
      await r.waitFor(1);
      expect(deliveriesOf(emu, id)[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status: status });
    }
    const failures: Array<[ReturnType<Behaviour>, RegExp | null, number | null]> = [
      [{ status: 301, headers: { location: elsewhere.url } }, null, 301],
      [{ status: 302, headers: { location: elsewhere.url } }, null, 302],
      [{ status: 307, headers: { location: elsewhere.url } }, null, 307],
      [400, null, 400],
      [410, null, 410],
      [500, null, 500],
      [503, null, 503],
      ['reset', /reset|closed|socket hang up/, null],
      ['hang', /timed out/, null],
    ];
    for (const [action, error, status] of failures) {
      const { emu, r } = await setup({ behaviour: () => action });
      emu.webhooks.attemptTimeoutMs = 300;
      const id = scan(emu, 'scan.completed', 'scan_x');
      await emu.advance(0);
      await r.waitFor(1);
      const [d] = deliveriesOf(emu, id);
      expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status: status, next_attempt_at: emu.clock.now() + 30_000 });
      if (error) expect(d!.last_error).toMatch(error);
    }
    // Redirects were never followed.
    expect(elsewhere.received).toHaveLength(0);
    // A refused connection is a failed attempt too.
    const { emu, r } = await setup();
    await r.close();
    const id = scan(emu, 'scan.completed', 'scan_refused');
    await emu.advance(0);
    expect(deliveriesOf(emu, id)[0]).toMatchObject({ status: 'pending', attempts: 1, last_status: null, last_error: 'connection refused' });
  });

  it('WH-8: delivery is at-least-once: failures are retried until acknowledged', async () => {
    const { emu, r } = await setup({ behaviour: (n) => (n <= 5 ? 500 : 200) });
    const id = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(3 * 3_600_000);
    await r.waitFor(6);
    expect(deliveriesOf(emu, id)[0]).toMatchObject({ status: 'succeeded', attempts: 6 });
    const attempts = emu.store.webhooks.attemptsOf(deliveriesOf(emu, id)[0]!.id);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 200]);
  });

  it('WH-9: 17 attempts, each at its own virtual time: 30 s doubling, capped at 6 h, then failed', async () => {
    const times: number[] = [];
    const { emu, r } = await setup({
      behaviour: () => {
        times.push(emu.clock.now());
        return 500;
      },
    });
    const start = emu.clock.now();
    const id = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(0);
    expect(times).toEqual([start]);
    // Attempt by attempt: nothing 1 ms before each gap, the next attempt exactly at it.
    for (let k = 0; k < WEBHOOK_RETRY_GAPS_MS.length; k++) {
      await emu.advance(WEBHOOK_RETRY_GAPS_MS[k]! - 1);
      expect(times).toHaveLength(k + 1);
      await emu.advance(1);
      expect(times).toHaveLength(k + 2);
      expect(times[k + 1]! - times[k]!).toBe(WEBHOOK_RETRY_GAPS_MS[k]);
    }
    expect(WEBHOOK_RETRY_GAPS_MS.slice(0, 10).map((g) => g / 1000)).toEqual([30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360]);
    expect(Math.max(...WEBHOOK_RETRY_GAPS_MS)).toBe(6 * 3_600_000);
    expect(times).toHaveLength(CHOICES.webhookMaxAttempts);
    expect(times.at(-1)! - start).toBe(44 * 3_600_000 + 31 * 60_000 + 30_000);
    const [d] = deliveriesOf(emu, id);
    expect(d).toMatchObject({ status: 'failed', attempts: 17, next_attempt_at: null, last_status: 500 });
    await emu.advance(7 * 24 * 3_600_000);
    expect(r.received).toHaveLength(17);
  });

  it('WH-9: one clock advance of 60h plays all 17 attempts at their own times', async () => {
    const times: number[] = [];
    const { emu } = await setup({ behaviour: () => (times.push(emu.clock.now()), 500) });
    const start = emu.clock.now();
    scan(emu, 'scan.completed', 'scan_1');
    const res = await emu.call('POST', '/_scanctl/clock/advance', { json: { duration: '60h' } });
    expect(res.status).toBe(200);
    let at = start;
    expect(times.map((t) => t - start)).toEqual([0, ...WEBHOOK_RETRY_GAPS_MS.map((g) => (at += g) - start)]);
  });

  it('WH-10: a duplicate report of the same scan_id never queues another delivery', async () => {
    const { emu, r } = await setup();
    const first = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(0);
    await r.waitFor(1);
    expect(scan(emu, 'scan.completed', 'scan_1')).toBe(first);
    await emu.advance(3_600_000);
    expect(r.received).toHaveLength(1);
    expect(deliveriesOf(emu, first)).toHaveLength(1);
  });

  it('WH-11: signing, headers, event id and retry schedule are the same for all three types', async () => {
    const { emu, r } = await setup({ results: true, behaviour: (n) => (n <= 3 ? 500 : 204) });
    const ids = [scan(emu, 'scan.completed', 's1'), scan(emu, 'scan.results_available', 's1'), scan(emu, 'scan.failed', 's2')];
    await emu.advance(0);
    for (const id of ids) expect(deliveriesOf(emu, id)[0]).toMatchObject({ attempts: 1, next_attempt_at: emu.clock.now() + 30_000 });
    await emu.advance(30_000);
    const got = await r.waitFor(6);
    for (const d of got) {
      expect(d.signatureValid).toBe(true);
      expect(
        Object.keys(d.headers)
          .filter((h) => h.startsWith('service-'))
          .sort(),
      ).toEqual(['service-event-id', 'service-event-type', 'service-signature']);
      expect(d.headers['service-event-id']).toBe(d.body.id);
    }
    for (const id of ids) expect(deliveriesOf(emu, id)[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('WH-12: scan.results_available joins scan.completed on scan_id', async () => {
    const { emu, r } = await setup({ results: true });
    scan(emu, 'scan.completed', 'scan_join');
    scan(emu, 'scan.results_available', 'scan_join');
    await emu.advance(0);
    const got = await r.waitFor(2);
    const completed = got.find((d) => d.body.type === 'scan.completed')!;
    const results = got.find((d) => d.body.type === 'scan.results_available')!;
    expect(results.body.data.scan_id).toBe(completed.body.data.scan_id);
    expect(results.body.id).not.toBe(completed.body.id);
  });

  it('APP-3: with no webhook_url the event is recorded and nothing is queued or sent', async () => {
    const { emu, r } = await setup({ url: false });
    const id = scan(emu, 'scan.completed', 'scan_1');
    await emu.advance(3_600_000);
    expect(emu.store.webhooks.eventById(id)).toMatchObject({ type: 'scan.completed', scan_id: 'scan_1' });
    expect(deliveriesOf(emu, id)).toHaveLength(0);
    expect(r.received).toHaveLength(0);
  });

  it('APP-2: an app without a secret gets its whsec_ when webhook_url is set, once, and deliveries are signed with it', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu, 'acct_trial');
    const probe = await receiver();
    const set = await emu.call('PATCH', '/v1/apps/app_trial', { headers: { cookie }, json: { webhook_url: probe.url } });
    const secret = set.body.webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    const r = await receiver(() => 200, secret);
    const again = await emu.call('PATCH', '/v1/apps/app_trial', { headers: { cookie }, json: { webhook_url: r.url } });
    expect(again.body.webhook_secret).toBeUndefined();
    recordScanEvent(emu.store, emu.ids, emu.clock.now(), {
      type: 'scan.completed',
      appId: 'app_trial',
      scanId: 'scan_t',
      hostUserRef: 'm',
      occurredAt: emu.clock.now(),
      modelVersion: 'v1',
    });
    await emu.advance(0);
    const [d] = await r.waitFor(1);
    expect(d!.signatureValid).toBe(true);
  });
});

describe('the dispatcher queue', () => {
  it('a claim hands out each due delivery once, as the outbox holds it, now in flight, the oldest due first', async () => {
    // The first delivery fails once (attempts, last status and error, a later due time); the second is new.
    const { emu, r } = await setup({ behaviour: (n) => (n === 1 ? 503 : 200) });
    const retried = deliveriesOf(emu, scan(emu, 'scan.completed', 's1'))[0]!.id;
    await emu.advance(0);
    await r.waitFor(1);
    // Just before its retry is due, a new delivery is queued, claimed alone, and put back by a
    // restart's reset: due with the retry (ties go in queue order), touched after it was queued.
    await emu.advance(WEBHOOK_RETRY_GAPS_MS[0]! - 1);
    const fresh = deliveriesOf(emu, scan(emu, 'scan.failed', 's2'))[0]!.id;
    const now = emu.clock.now();
    expect(emu.store.webhooks.claimDue(now, 10).map((d) => d.id)).toEqual([fresh]);
    emu.store.webhooks.resetInFlight(now + 1);
    const before = [emu.store.webhooks.deliveryById(retried)!, emu.store.webhooks.deliveryById(fresh)!];
    expect(before[0]).toMatchObject({ status: 'pending', attempts: 1, last_status: 503, last_error: 'HTTP 503', next_attempt_at: now + 1 });
    expect(before[1]).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: now + 1, updated_at: now + 1, created_at: now });

    const claimed = emu.store.webhooks.claimDue(now + 1, 10);
    expect(claimed).toEqual(before.map((row) => ({ ...row, status: 'in_flight' })));
    expect(emu.store.webhooks.claimDue(emu.clock.now(), 10)).toEqual([]);
    expect(emu.store.webhooks.nextDueAt()).toBeNull();
    expect(emu.store.webhooks.status(retried)).toBe('in_flight');
  });

  it('a claimed delivery is written in flight in the claim (what a kill -9 leaves, and a restart sends again)', async () => {
    const { emu } = await setup();
    const [first, second] = [scan(emu, 'scan.completed', 's1'), scan(emu, 'scan.completed', 's2')].map(
      (e) => deliveriesOf(emu, e)[0]!.id,
    ) as [string, string];
    const now = emu.clock.now();
    expect(emu.store.webhooks.claimDue(now, 1).map((d) => d.id)).toEqual([first]);
    const stored = () => emu.store.db.prepare('SELECT id, status, next_attempt_at FROM deliveries ORDER BY rowid').all();
    expect(stored()).toEqual([
      { id: first, status: 'in_flight', next_attempt_at: now },
      { id: second, status: 'pending', next_attempt_at: now },
    ]);
    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
    expect(emu.store.webhooks.deliveryById(first)!.status).toBe('in_flight');
    expect(emu.store.webhooks.deliveryById(second)!.status).toBe('pending');
    expect(ids(emu.store.webhooks.deliveries({ app_id: DEMO.appId, status: 'in_flight' }))).toEqual([first]);
    expect(ids(emu.store.webhooks.deliveries({ status: 'pending' }))).toEqual([second]);
    expect(ids(emu.store.webhooks.deliveries({ scan_id: 's1', status: 'in_flight' }))).toEqual([first]);
    expect(emu.store.webhooks.deliveries({ app_id: DEMO.appId }).map((r) => [r.id, r.status])).toEqual([
      [second, 'pending'],
      [first, 'in_flight'],
    ]);
    const pages = emu.store.deliveryPages;
    expect(pages.page({ app_id: DEMO.appId, status: 'in_flight', limit: 10 }).rows.map((r) => [r.id, r.status])).toEqual([
      [first, 'in_flight'],
    ]);
    expect(ids(pages.page({ app_id: DEMO.appId, status: 'pending', limit: 10 }).rows)).toEqual([second]);
    expect(pages.row(first)!.status).toBe('in_flight');
    expect([pages.count(DEMO.appId, 'in_flight'), pages.count(DEMO.appId, 'pending'), pages.count(DEMO.appId)]).toEqual([1, 1, 2]);
    const res = await emu.call('GET', '/_scanctl/webhooks/deliveries?status=in_flight');
    expect((res.body as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual([first]);
    // The dispatcher's next wake-up is for what is not yet claimed; once both are, for nothing.
    expect(emu.store.webhooks.nextDueAt()).toBe(now);
    expect(emu.store.webhooks.claimDue(now, 10).map((d) => d.id)).toEqual([second]);
    expect(emu.store.webhooks.nextDueAt()).toBeNull();
    // A restart of the dispatcher in this process makes its claims due now; nothing is in flight after it.
    expect(emu.store.webhooks.resetInFlight(now + 5)).toBe(2);
    expect(stored()).toEqual([
      { id: first, status: 'pending', next_attempt_at: now + 5 },
      { id: second, status: 'pending', next_attempt_at: now + 5 },
    ]);
    expect(pages.count(DEMO.appId, 'in_flight')).toBe(0);
  });
});

describe('DEL-2: deleting a member drops their queued deliveries', () => {
  it('DEL-2: queued deliveries and scheduled retries of that member are never sent; other members are untouched', async () => {
    const { emu, r } = await setup({ results: true, behaviour: () => 500 });
    const mine = [scan(emu, 'scan.completed', 's1'), scan(emu, 'scan.results_available', 's1')];
    const other = scan(emu, 'scan.completed', 's2', { hostUserRef: 'member_2' });
    await emu.advance(0);
    expect(r.received).toHaveLength(3);
    const res = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: DEMO.testSecret });
    expect(res.status).toBe(200);
    for (const id of mine) expect(deliveriesOf(emu, id)[0]).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    r.behaviour = () => 200;
    await emu.advance(3_600_000);
    const after = r.received.slice(3);
    expect(after.map((d) => d.body.data.host_user_ref)).toEqual(['member_2']);
    expect(deliveriesOf(emu, other)[0]).toMatchObject({ status: 'succeeded' });
    // The deleted result is gone from the outbox too, and cannot be resent.
    expect(emu.store.webhooks.eventById(mine[1]!)!.payload).toBe('');
    const resend = await emu.call('POST', `/_scanctl/webhooks/events/${mine[1]}/resend`);
    expect(resend.status).toBe(409);
  });

  it('DEL-2: an attempt in flight during the deletion never brings the delivery back', async () => {
    let answer!: (status: number) => void;
    const { emu, r } = await setup({
      behaviour: () => new Promise<number>((resolve) => (answer = resolve)),
    });
    const id = scan(emu, 'scan.completed', 's1');
    const playing = emu.advance(0);
    await r.waitFor(1);
    expect(deliveriesOf(emu, id)[0]!.status).toBe('in_flight');
    const res = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: DEMO.testSecret });
    expect(res.status).toBe(200);
    answer(500);
    await playing;
    const [d] = deliveriesOf(emu, id);
    expect(d).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    // The attempt that was on the wire is recorded, and nothing follows it.
    expect(emu.store.webhooks.attemptsOf(d!.id)).toHaveLength(1);
    await emu.advance(60 * 3_600_000);
    expect(r.received).toHaveLength(1);
  });

  it('DEL-2: a claimed (in_flight) delivery is cancelled too, and stays cancelled across a restart reset', async () => {
    const { emu, r } = await setup();
    const id = scan(emu, 'scan.completed', 's1');
    // Claim (as the dispatcher does), then delete before the send starts.
    const claimed = emu.store.webhooks.claimDue(emu.clock.now(), 10);
    expect(claimed).toHaveLength(1);
    await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: DEMO.testSecret });
    emu.store.webhooks.resetInFlight(emu.clock.now());
    await emu.advance(3_600_000);
    expect(r.received).toHaveLength(0);
    expect(deliveriesOf(emu, id)[0]!.status).toBe('cancelled');
  });
});
