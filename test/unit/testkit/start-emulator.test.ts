import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/index.js';
import { DEMO } from '../../helpers/emulator.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';

const START = '2026-03-01T12:00:00.000Z';

describe('startEmulator: the emulator in the calling process', () => {
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const r of receivers) await r.close();
  });

  it('serves on a free port with the fixtures app and its test keys; the frozen clock moves only when told', async () => {
    await using emu = await startEmulator({ clock: { start: START, frozen: true } });
    expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.port).toBeGreaterThan(0);
    expect({ app: emu.appId, sk: emu.secretKey, pk: emu.publishableKey, wh: emu.webhookSecret }).toEqual({
      app: DEMO.appId,
      sk: DEMO.testSecret,
      pk: DEMO.testPublishable,
      wh: DEMO.webhookSecret,
    });
    const minted = await fetch(`${emu.baseUrl}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ host_user_ref: 'member_1' }),
    });
    expect(minted.status).toBe(201);
    expect(((await minted.json()) as { expires_at: string }).expires_at).toBe('2026-03-01T12:15:00.000Z');
    expect(emu.clock.now().toISOString()).toBe(START);
    expect((await emu.clock.advance('90s')).now).toBe('2026-03-01T12:01:30.000Z');
    expect((await emu.clock.advance(500)).now).toBe('2026-03-01T12:01:30.500Z');
    expect((await emu.clock.set(new Date('2026-03-02T00:00:00Z'))).now).toBe('2026-03-02T00:00:00.000Z');
    await expect(emu.clock.set('2026-01-01T00:00:00Z')).rejects.toThrow(/only moves forward/);
    await expect(emu.clock.advance('soon')).rejects.toThrow(/duration/);
  });

  it('WH-9: a scan end to end; a receiver answering 500 is retried when the clock advances; attempts are listed', async () => {
    let failing = true;
    const receiver = await startReceiver(DEMO.webhookSecret, () => (failing ? 500 : 200));
    receivers.push(receiver);
    await using emu = await startEmulator({ clock: { start: START, frozen: true }, seed: 1 });
    const app = await emu.updateApp({ webhook_url: receiver.url, results_delivery_enabled: true });
    expect(app.webhook_url).toBe(receiver.url);
    const scan = await emu.simulateScan({ user: 'member_1' });
    expect(scan).toMatchObject({ state: 'recorded', outcome: 'completed', billable: false, result: 'stored' });
    const first = await emu.waitForDeliveries();
    expect(first.map((d) => [d.event_type, d.status, d.attempts]).sort()).toEqual([
      ['scan.completed', 'pending', 1],
      ['scan.results_available', 'pending', 1],
    ]);
    expect(first[0]!.attempt_log[0]).toMatchObject({ number: 1, status: 500 });
    failing = false;
    await emu.clock.advance('30s');
    const settled = await emu.deliveries();
    expect(settled.map((d) => [d.status, d.attempts])).toEqual([
      ['succeeded', 2],
      ['succeeded', 2],
    ]);
    expect(receiver.received.every((d) => d.signatureValid)).toBe(true);
    expect((await emu.scans()).map((s) => s.id)).toEqual([scan.scan_id]);
  });

  it('exportState, importState and reset; several emulators in one process are independent', async () => {
    await using a = await startEmulator({ clock: { start: START, frozen: true } });
    await using b = await startEmulator({
      fixtures: {
        accounts: [{ id: 'acct_x' }],
        apps: [
          {
            id: 'app_x',
            account_id: 'acct_x',
            name: 'X',
            bundle_id: 'com.x',
            team_id: 'ABCDEFGHIJ',
            keys: { test: { secret: 'sk_test_xxxxxxxxxxxxxxxxxxxx', publishable: 'pk_test_xxxxxxxxxxxxxxxxxxxx' } },
          },
        ],
      },
    });
    expect(b.appId).toBe('app_x');
    expect(b.port).not.toBe(a.port);
    await a.simulateScan({ user: 'member_a' });
    expect(await a.scans()).toHaveLength(1);
    expect(await b.scans()).toHaveLength(0);
    const state = await a.exportState({ includeSecrets: true });
    await a.reset();
    expect(await a.scans()).toHaveLength(0);
    await a.importState(state);
    expect((await a.scans()).map((s) => s.host_user_ref)).toEqual(['member_a']);
    await using c = await startEmulator({ state });
    expect((await c.scans()).map((s) => s.host_user_ref)).toEqual(['member_a']);
  });

  it('CHOICE-45: checkpoint() and its restore() put back scans and the clock; restore(name) too', async () => {
    await using emu = await startEmulator({ clock: { start: START, frozen: true } });
    await emu.simulateScan({ user: 'member_a' });
    const baseline = await emu.checkpoint('baseline');
    expect(baseline).toMatchObject({ object: 'checkpoint', name: 'baseline' });
    await emu.simulateScan({ user: 'member_b' });
    await emu.clock.advance('2h');
    expect(await emu.scans()).toHaveLength(2);
    expect(await baseline.restore()).toMatchObject({ object: 'checkpoint_restore', id: baseline.id });
    expect((await emu.scans()).map((s) => s.host_user_ref)).toEqual(['member_a']);
    expect(emu.clock.now().toISOString()).toBe(START);
    await emu.simulateScan({ user: 'member_c' });
    await emu.restore('baseline');
    expect((await emu.scans()).map((s) => s.host_user_ref)).toEqual(['member_a']);
  });

  it('close() frees the port; bad fixtures and a bad clock start are refused before anything serves', async () => {
    const emu = await startEmulator();
    await emu.close();
    await expect(fetch(`${emu.baseUrl}/_scanctl`)).rejects.toThrow();
    await emu.close();
    await expect(startEmulator({ fixtures: { apps: [{ id: 'nope' }] } as never })).rejects.toThrow(/apps\[0\]/);
    await expect(startEmulator({ clock: { start: 'tomorrow' } })).rejects.toThrow(/clock.start/);
  });
});
