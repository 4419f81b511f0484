import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/index.js';
import { WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import { DEMO, testEmulator } from '../../helpers/emulator.js';
import { startReceiver, type Behaviour, type Receiver } from '../../helpers/webhook-receiver.js';

const START = '2026-03-01T12:00:00.000Z';

/** What the test libraries of clients/ call instead of `scanctl scan simulate`: one POST, no CLI. */
describe('POST /_scanctl/apps/{app_id}/scans/simulate: the emulator plays the device side itself', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  async function emulatorTo(behaviour: Behaviour) {
    receiver = await startReceiver(DEMO.webhookSecret, behaviour);
    const emu = await startEmulator({ clock: { start: START, frozen: true } });
    await emu.updateApp({ webhook_url: receiver.url });
    return emu;
  }

  const simulate = (baseUrl: string, body: unknown, app = DEMO.appId) =>
    fetch(`${baseUrl}/_scanctl/apps/${app}/scans/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('CHOICE-41, WH-9, DEV-1: records the scan and, with play_retries, answers once the retry was acknowledged, every attempt in its log', async () => {
    await using emu = await emulatorTo((n) => (n === 1 ? 500 : 204));
    const { status, body } = await simulate(emu.baseUrl, { host_user_ref: 'member_1', play_retries: true });
    expect(status).toBe(201);
    expect(body.scan).toMatchObject({ object: 'simulated_scan', host_user_ref: 'member_1', state: 'recorded', outcome: 'completed' });
    expect((await emu.scans({ hostUserRef: 'member_1' })).map((s) => s.id)).toEqual([body.scan.scan_id]);
    expect(body.wait).toMatchObject({ object: 'wait', ok: true, reason: null, acknowledged: 1, deliveries: 1 });
    expect(body.wait.clock_moves).toHaveLength(1);
    const [log] = body.wait.log;
    expect(log.scan_id).toBe(body.scan.scan_id);
    expect(log.attempts.map((a: { status: number; started_at: string }) => [a.status, a.started_at])).toEqual([
      [500, START],
      [204, new Date(Date.parse(START) + WEBHOOK_RETRY_GAPS_MS[0]!).toISOString()],
    ]);
    expect(receiver!.received.map((d) => d.signatureValid)).toEqual([true, true]);
  });

  it('without play_retries a retry on the frozen clock is not played: the wait times out; wait false answers at once', async () => {
    await using emu = await emulatorTo(() => 500);
    const timedOut = await simulate(emu.baseUrl, { host_user_ref: 'member_2', timeout_ms: 300 });
    expect(timedOut.body.wait).toMatchObject({ ok: false, reason: 'timeout', clock_moves: [] });
    const failed = await simulate(emu.baseUrl, { host_user_ref: 'member_3', outcome: 'failed', wait: false });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ scan: { outcome: 'failed', state: 'recorded' }, wait: null });
  });

  it('refuses an unknown app (404) and a bad body (400), in process too (no socket: the app answers its own device calls)', async () => {
    const emu = testEmulator();
    expect((await emu.call('POST', '/_scanctl/apps/app_nope/scans/simulate', { json: { host_user_ref: 'm' } })).status).toBe(404);
    const bad = await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/scans/simulate`, { json: { host_user_ref: 'm', outcome: 'lost' } });
    expect(bad.status).toBe(400);
    const done = await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/scans/simulate`, { json: { host_user_ref: 'm', wait: false } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.scan.state).toBe('recorded');
  });
});
