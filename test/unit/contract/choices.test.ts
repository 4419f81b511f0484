import { afterEach, describe, expect, it } from 'vitest';
import { CHOICES, HOUR, MINUTE, WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import { sha256Hex } from '../../../src/util/crypto.js';
import { recordScanEvent, RESULTS_WITHDRAWN } from '../../../src/webhooks/outbox.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator } from '../../helpers/emulator.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';
import { challenge, enroll, event, mint, uid } from '../../helpers/device.js';

/** Where the interface is silent, the emulator's documented choices (docs/emulator-choices.md). */

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

describe('documented choices at the edges', () => {
  it('WH-3, CHOICE-17: a scan.results_available not yet sent when results delivery is switched off is never sent: cancelled with the reason, not brought back; scan.completed unaffected', async () => {
    const emu = testEmulator();
    const r = await startReceiver(DEMO.webhookSecret, (n) => (n <= 2 ? 500 : 200));
    receivers.push(r);
    const cookie = await portalCookie(emu);
    const patch = (json: unknown) => emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { headers: { cookie }, json });
    await patch({ webhook_url: r.url, results_delivery_enabled: true });
    const record = (type: 'scan.completed' | 'scan.results_available', scanId: string) =>
      recordScanEvent(emu.store, emu.ids, emu.clock.now(), {
        type,
        appId: DEMO.appId,
        scanId,
        hostUserRef: 'member_1',
        occurredAt: emu.clock.now(),
        modelVersion: 'm',
        ...(type === 'scan.results_available' ? { result: { a: 1 }, resultJson: '{"a":1}' } : {}),
      });
    const resultsEvent = record('scan.results_available', 'scn_1');
    const completedEvent = record('scan.completed', 'scn_1');
    await emu.advance(0);
    await r.waitFor(2); // both answered 500: pending, retried in 30 s

    expect((await patch({ results_delivery_enabled: false })).body.results_delivery_enabled).toBe(false);
    const listed = await emu.call('GET', `/_scanctl/webhooks/deliveries?app_id=${DEMO.appId}`);
    const byEvent = new Map<string, any>(listed.body.data.map((d: any) => [d.event_id, d]));
    expect(byEvent.get(resultsEvent)).toMatchObject({ status: 'cancelled', next_attempt_at: null, last_error: RESULTS_WITHDRAWN });
    expect(byEvent.get(completedEvent)).toMatchObject({ status: 'pending' });
    // The console lists it with the reason.
    const page = await emu.app.request(`/deliveries?app_id=${DEMO.appId}`, { headers: { cookie } });
    expect(await page.text()).toContain('results delivery was switched off');

    // On again: what was withdrawn stays withdrawn, and a resend of it is refused while it was off.
    await emu.advance(WEBHOOK_RETRY_GAPS_MS[0]!);
    const resend = await emu.call('POST', `/_scanctl/webhooks/events/${resultsEvent}/resend`);
    expect(resend.status).toBe(403);
    expect(expectErrorBody(resend.body).code).toBe('results_delivery_disabled');
    await patch({ results_delivery_enabled: true });
    await emu.advance(WEBHOOK_RETRY_GAPS_MS[1]!);
    expect(r.received.map((d) => d.body.type)).toEqual(['scan.results_available', 'scan.completed', 'scan.completed']);
    expect(emu.store.webhooks.deliveries({ event_id: resultsEvent })).toMatchObject([{ status: 'cancelled', attempts: 1 }]);
  });

  it('WH-3: at the moment of sending, a scan.results_available of an app whose results delivery is off is not sent (whatever switched it off)', async () => {
    const emu = testEmulator();
    const r = await startReceiver(DEMO.webhookSecret, () => 200);
    receivers.push(r);
    const cookie = await portalCookie(emu);
    await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, {
      headers: { cookie },
      json: { webhook_url: r.url, results_delivery_enabled: true },
    });
    const eventId = recordScanEvent(emu.store, emu.ids, emu.clock.now(), {
      type: 'scan.results_available',
      appId: DEMO.appId,
      scanId: 'scn_2',
      hostUserRef: 'member_1',
      occurredAt: emu.clock.now(),
      modelVersion: 'm',
      result: { a: 1 },
      resultJson: '{"a":1}',
    });
    // Switched off behind the settings route's back (a state import, a fixture reload): the dispatcher still checks.
    emu.store.apps.updateSettings({ ...emu.store.apps.get(DEMO.appId)!, results_delivery_enabled: 0, now: emu.clock.now() });
    await emu.advance(0);
    expect(r.received).toHaveLength(0);
    expect(emu.store.webhooks.deliveries({ event_id: eventId })).toMatchObject([
      { status: 'cancelled', attempts: 0, last_error: RESULTS_WITHDRAWN },
    ]);
  });

  it('CHOICE-18: a refused attestation uses up its challenge (the same challenge cannot be retried)', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const chl = await challenge(emu, token);
    const body = (bundleId: string) => ({
      installation_id: uid('ins'),
      attestation: { format: 'stub', challenge: chl, bundle_id: bundleId, team_id: DEMO.teamId },
    });
    const refused = await emu.call('POST', '/v1/device/enrollments', { key: token, json: body('com.example.other') });
    expect(expectErrorBody(refused.body).code).toBe('attestation_invalid');
    const retried = await emu.call('POST', '/v1/device/enrollments', { key: token, json: body(DEMO.bundleId) });
    expect(retried.status).toBe(403);
    expect(expectErrorBody(retried.body)).toMatchObject({ code: 'challenge_invalid', param: 'attestation.challenge' });
    expect(emu.store.device.challenge(sha256Hex(chl))!.used_at).not.toBeNull();
  });

  it('CHOICE-19: a JSON body with a duplicate key is accepted and the last value wins, as JSON.parse decides', async () => {
    const emu = testEmulator();
    const res = await emu.call('POST', '/v1/sessions', {
      key: DEMO.testSecret,
      body: '{"host_user_ref":"first","host_user_ref":"last"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(emu.store.sessions.byTokenHash(sha256Hex(res.body.session_token))!.host_user_ref).toBe('last');
  });

  it('CHOICE-9: 17 attempts means the first one and 16 retries; the last starts 44 h 31 m 30 s after the first', () => {
    expect(CHOICES.webhookMaxAttempts).toBe(17);
    expect(WEBHOOK_RETRY_GAPS_MS).toHaveLength(16);
    expect(WEBHOOK_RETRY_GAPS_MS[0]).toBe(30_000);
    expect(Math.max(...WEBHOOK_RETRY_GAPS_MS)).toBe(6 * HOUR);
    expect(WEBHOOK_RETRY_GAPS_MS.reduce((a, b) => a + b, 0)).toBe(44 * HOUR + 31 * MINUTE + 30_000);
  });

  it('CHOICE-21: an Idempotency-Key replays only for the same member and key environment; under another member it is 409', async () => {
    const emu = testEmulator();
    const token = await mint(emu, 'member_1');
    const installation = await enroll(emu, token);
    const report = {
      installation_id: installation,
      scan_id: uid('scn'),
      status: 'completed',
      occurred_at: new Date(emu.clock.now()).toISOString(),
    };
    const first = await event(emu, token, report, 'key-1');
    expect(first.status).toBe(201);
    const replay = await event(emu, await mint(emu, 'member_1'), report, 'key-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const other = await event(emu, await mint(emu, 'member_2'), report, 'key-1');
    expect(other.status).toBe(409);
    expect(expectErrorBody(other.body).code).toBe('idempotency_key_reused');
  });
});
