import { afterEach, beforeEach, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from 'scanctl';
import { startBackend, type Backend } from './backend.js';

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

it('records a completed scan', async () => {
  const scan = await emu.simulateScan({ user: 'member_1' });
  const deliveries = await emu.waitForDeliveries();
  expect(deliveries.every((d) => d.status === 'succeeded')).toBe(true);
  expect([...backend.state.completedScans]).toEqual([[scan.scan_id, expect.objectContaining({ member: 'member_1' })]]);
});

it('WH-9: a failed delivery is retried when the clock is advanced', async () => {
  backend.state.failing = true; // your receiver answers 503
  await emu.simulateScan({ user: 'member_2' });
  await emu.waitForDeliveries(); // attempt 1: 503, next attempt in 30 s
  backend.state.failing = false;
  await emu.clock.advance('30s'); // attempt 2 is made and recorded before this resolves
  expect((await emu.deliveries()).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
});

it('WH-9: the wait plays the retry', async () => {
  backend.state.failing = true;
  const scan = await emu.simulateScan({ user: 'member_3' });
  await emu.waitForDeliveries({ scanId: scan.scan_id, until: 'attempted' }); // attempt 1: 503
  backend.state.failing = false;
  const deliveries = await emu.waitForDeliveries({ scanId: scan.scan_id, playRetries: true });
  expect(deliveries.map((d) => d.attempt_log.map((a) => a.status))).toEqual([
    [503, 200],
    [503, 200],
  ]);
});
