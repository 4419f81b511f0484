import { describe, expect, it, vi } from 'vitest';
import type { DispatchLoop } from '../../../../src/webhooks/dispatch/loop.js';
import { completedScan, enroll, event, mint, setResultsDelivery, uid, upload } from '../../../helpers/device.js';
import { testEmulator } from '../../../helpers/emulator.js';

/** Every wake of every dispatcher this file makes: the loop's kick, counted where it is made. */
const wakes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../../src/webhooks/dispatch/loop.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../src/webhooks/dispatch/loop.js')>();
  return {
    ...real,
    dispatchLoop: (...args: Parameters<typeof real.dispatchLoop>): DispatchLoop => {
      const loop = real.dispatchLoop(...args);
      return {
        ...loop,
        kick() {
          wakes.count += 1;
          loop.kick();
        },
      };
    },
  };
});

/** The wakes counted while `work` runs and the outbox's announcement (next turn) is delivered. */
async function wakesDuring(work: () => Promise<unknown>): Promise<number> {
  const before = wakes.count;
  await work();
  await new Promise(setImmediate);
  return wakes.count - before;
}

describe('one wake path from a recorded event to the dispatcher', () => {
  it('a reported scan that queues a delivery wakes the dispatcher once (through the outbox, not again by the route)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, false, 'http://127.0.0.1:9/hook');
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    const woken = await wakesDuring(async () => {
      const res = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
      expect(res.status).toBe(201);
    });
    expect(emu.store.webhooks.deliveries({ status: 'pending', limit: 10 })).toHaveLength(1);
    expect(woken).toBe(1);
  });

  it('an uploaded result that queues scan.results_available wakes it once', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true, 'http://127.0.0.1:9/hook');
    const { token, installation, scanId } = await completedScan(emu);
    await new Promise(setImmediate);
    const woken = await wakesDuring(async () => expect((await upload(emu, token, scanId, installation)).status).toBeLessThan(300));
    expect(emu.store.webhooks.deliveries({ status: 'pending', limit: 10 })).toHaveLength(2);
    expect(woken).toBe(1);
  });

  it('a scan that queues nothing (no webhook URL) wakes nothing', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const woken = await wakesDuring(() => event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' }));
    expect(emu.store.webhooks.deliveries({ limit: 10 })).toHaveLength(0);
    expect(woken).toBe(0);
  });
});
