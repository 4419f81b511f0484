import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signPayload } from 'scanctl/verify';
import { startEmulator, type EmulatorHandle } from 'scanctl';
import { startBackend, type Backend, type CompletedScan } from './backend.js';

/**
 * The example backend against an emulator started in the test's own process: one emulator per
 * test, a frozen clock, a seed, and no sleeps: retries are played by moving the clock.
 */
describe('the example backend, tested against startEmulator', () => {
  let emu: EmulatorHandle;
  let backend: Backend;

  beforeEach(async () => {
    emu = await startEmulator({ clock: { start: '2026-03-10T09:00:00Z', frozen: true }, seed: 42 });
    backend = await startBackend({ serviceUrl: emu.baseUrl, secretKey: emu.secretKey, webhookSecret: emu.webhookSecret });
    await emu.updateApp({ webhook_url: backend.webhookUrl, results_delivery_enabled: true });
  });
  afterEach(async () => {
    await backend.close();
    await emu.close();
  });

  const mintAt = (member: string | null) =>
    fetch(`${backend.url}/scan-sessions`, { method: 'POST', headers: member ? { 'x-member-id': member } : {} });

  it('WH-4: a scan end to end: the backend mints the token, the webhook arrives signed, the completed scan and its result are recorded', async () => {
    const minted = await mintAt('member_1');
    expect(minted.status).toBe(201);
    const session = (await minted.json()) as { session_token: string; expires_at: string };
    expect(session.session_token).toMatch(/^vst_/);
    expect(session.expires_at).toBe('2026-03-10T09:15:00.000Z');
    expect((await mintAt(null)).status).toBe(401);

    const scan = await emu.simulateScan({ user: 'member_1' });
    expect(scan.state).toBe('recorded');
    const deliveries = await emu.waitForDeliveries();
    expect(deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect([...backend.state.completedScans]).toEqual([
      [scan.scan_id, { member: 'member_1', occurredAt: '2026-03-10T09:00:00.000Z', month: '2026-03' }],
    ]);
    expect(backend.state.results.get('member_1')?.map((r) => r.scanId)).toEqual([scan.scan_id]);
    expect(backend.billableMembers('2026-03')).toBe(1);
  });

  it('WH-9: while the backend answers 503 the service retries, played by advancing the clock', async () => {
    backend.state.failing = true;
    const scan = await emu.simulateScan({ user: 'member_2' });
    const failed = await emu.waitForDeliveries();
    expect(failed.map((d) => [d.status, d.attempts, d.last_status])).toEqual([
      ['pending', 1, 503],
      ['pending', 1, 503],
    ]);
    await emu.clock.advance('30s');
    expect((await emu.deliveries()).map((d) => d.attempts)).toEqual([2, 2]);
    backend.state.failing = false;
    await emu.clock.advance('10m');
    const delivered = await emu.deliveries();
    expect(delivered.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect(delivered[0]!.attempt_log.map((a) => a.status)).toEqual([503, 503, 200]);
    expect([...backend.state.completedScans.keys()]).toEqual([scan.scan_id]);
  });

  it('WH-9: your handler itself fails once (its store throws), answers 500, and the retry records the scan', async () => {
    const saved = new Map<string, CompletedScan>();
    let failNext = true;
    const store = {
      saveCompletedScan(scanId: string, scan: CompletedScan) {
        if (failNext) {
          failNext = false;
          throw new Error('database is locked'); // your database, failing once
        }
        saved.set(scanId, scan);
      },
    };
    const own = await startBackend({ serviceUrl: emu.baseUrl, secretKey: emu.secretKey, webhookSecret: emu.webhookSecret, store });
    await emu.updateApp({ webhook_url: own.webhookUrl });
    const scan = await emu.simulateScan({ user: 'member_9' });
    const deliveries = await emu.waitForDeliveries({ scanId: scan.scan_id, playRetries: true });
    const completed = deliveries.find((d) => d.event_type === 'scan.completed');
    expect(completed?.attempt_log.map((a) => a.status)).toEqual([500, 200]);
    expect([...saved.keys()]).toEqual([scan.scan_id]);
    await own.close();
  });

  it('WH-5, WH-10: a replayed delivery and a duplicate report are handled once; a forged or altered body is refused', async () => {
    await emu.simulateScan({ user: 'member_3', duplicateReport: true });
    const [delivery] = await emu.waitForDeliveries({});
    // The duplicate report made no second delivery (WH-10): one scan.completed, one scan.results_available.
    expect((await emu.deliveries()).length).toBe(2);
    const { headers, body } = delivery!.request;
    const replay = await fetch(backend.webhookUrl, { method: 'POST', headers, body });
    expect(await replay.json()).toEqual({ duplicate: true });
    expect(backend.state.completedScans.size).toBe(1);

    const forged = await fetch(backend.webhookUrl, {
      method: 'POST',
      headers: { ...headers, 'Service-Signature': signPayload(body, 'whsec_somebodyElse') },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'mismatch' });
    const altered = await fetch(backend.webhookUrl, { method: 'POST', headers, body: body.replace('member_3', 'member_x') });
    expect(altered.status).toBe(400);
    expect(backend.state.rejected).toBe(2);
  });

  it('SES-5: a token the backend minted works for 15 minutes, then the device is refused', async () => {
    const { session_token } = (await (await mintAt('member_4')).json()) as { session_token: string };
    const challenge = () =>
      fetch(`${emu.baseUrl}/v1/device/challenge`, { method: 'POST', headers: { authorization: `Bearer ${session_token}` } });
    expect((await challenge()).status).toBe(201);
    await emu.clock.advance('15m');
    const expired = await challenge();
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('session_token_expired');
  });

  it("DEL-2: deleting a member's results at the backend deletes them at the service too", async () => {
    const scan = await emu.simulateScan({ user: 'member_5' });
    await emu.waitForDeliveries();
    expect(backend.state.results.has('member_5')).toBe(true);
    const deleted = await fetch(`${backend.url}/members/member_5/results`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ member: 'member_5', deleted_at_service: 1 });
    expect(backend.state.results.has('member_5')).toBe(false);
    const [stored] = await emu.scans({ hostUserRef: 'member_5' });
    expect(stored).toMatchObject({ id: scan.scan_id, result_stored: false });
  });
});
