import { describe, expect, it } from 'vitest';
import { ControlClient } from '../../../src/client/control.js';
import { attemptLogs, NotAnEmulatorError, waitForDeliveries, type WaitTimer } from '../../../src/client/wait.js';
import { WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import type { TestEmulator } from '../../helpers/emulator.js';
import type { Behaviour } from '../../helpers/webhook-receiver.js';
import { cleanupAfterEach, emulatorWithReceiver, recordScan } from '../../helpers/webhook-setup.js';

const cleanup = cleanupAfterEach();
const setup = (behaviour: Behaviour) => emulatorWithReceiver(cleanup, { behaviour });

const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** The real client, its requests answered by the in-process emulator (no socket). */
function controlOf(emu: TestEmulator): ControlClient {
  return new ControlClient('http://127.0.0.1', (input, init) => Promise.resolve(emu.app.request(urlOf(input), init)));
}

/**
 * Real time that moves only when slept on; each sleep gives the in-process emulator a turn to send
 * what is due now (the real-time dispatcher of `serve`, which a test emulator does not run).
 */
function dispatchingTimer(emu: TestEmulator): WaitTimer & { sleeps: () => number } {
  let now = 0;
  let sleeps = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      sleeps += 1;
      await emu.advance(0);
    },
    sleeps: () => sleeps,
  };
}

describe('waitForDeliveries with playRetries', () => {
  it('CHOICE-41: moves the clock to the retry once the failed attempt is recorded, exactly there, and the retry is acknowledged', async () => {
    const { emu, r } = await setup((n) => (n === 1 ? 500 : 204));
    recordScan(emu, { scanId: 's1' });
    const start = emu.clock.now();
    const control = controlOf(emu);
    const outcome = await waitForDeliveries(control, {
      scanIds: ['s1'],
      playRetries: true,
      timeoutMs: 5_000,
      pollMs: 5,
      timer: dispatchingTimer(emu),
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(r.received).toHaveLength(2);
    // One move, from where the clock was to the retry's due time, no further.
    expect(outcome.clockMoves).toHaveLength(1);
    expect(Date.parse(outcome.clockMoves[0]!.to)).toBe(start + WEBHOOK_RETRY_GAPS_MS[0]!);
    expect(emu.clock.now()).toBe(start + WEBHOOK_RETRY_GAPS_MS[0]!);
    const [log] = await attemptLogs(control, outcome.deliveries);
    expect(log!.attempts.map((a) => [a.number, a.status, Date.parse(a.started_at) - start])).toEqual([
      [1, 500, 0],
      [2, 204, WEBHOOK_RETRY_GAPS_MS[0]],
    ]);
  });

  it('CHOICE-41: a receiver that always fails is exhausted after 17 attempts, each retry played at its due time', async () => {
    const { emu, r } = await setup(() => 503);
    recordScan(emu, { scanId: 's1' });
    const start = emu.clock.now();
    const outcome = await waitForDeliveries(controlOf(emu), {
      scanIds: ['s1'],
      playRetries: true,
      timeoutMs: 30_000,
      pollMs: 5,
      timer: dispatchingTimer(emu),
    });
    expect(outcome).toMatchObject({ ok: false, reason: 'failed', delivery: { status: 'failed', attempts: 17, last_status: 503 } });
    expect(r.received).toHaveLength(17);
    expect(outcome.clockMoves).toHaveLength(16);
    const total = WEBHOOK_RETRY_GAPS_MS.reduce((sum, gap) => sum + gap, 0);
    expect(emu.clock.now()).toBe(start + total);
  });

  it('CHOICE-42: until attempted with --attempts 2 plays one retry and stops there; exhausted plays them all', async () => {
    const { emu, r } = await setup(() => 500);
    recordScan(emu, { scanId: 's1' });
    const control = controlOf(emu);
    const two = await waitForDeliveries(control, {
      scanIds: ['s1'],
      until: 'attempted',
      attempts: 2,
      playRetries: true,
      timeoutMs: 5_000,
      pollMs: 5,
      timer: dispatchingTimer(emu),
    });
    expect(two).toMatchObject({ ok: true, deliveries: [{ attempts: 2, status: 'pending' }] });
    expect(r.received).toHaveLength(2);
    const all = await waitForDeliveries(control, {
      scanIds: ['s1'],
      until: 'exhausted',
      playRetries: true,
      timeoutMs: 5_000,
      pollMs: 5,
      timer: dispatchingTimer(emu),
    });
    expect(all).toMatchObject({ ok: true, deliveries: [{ attempts: 17, status: 'failed' }] });
  });

  it('CHOICE-44: refused before anything is read when the base URL is not an emulator', async () => {
    const paths: string[] = [];
    const notEmulator = new ControlClient('http://127.0.0.1', (input) => {
      paths.push(new URL(urlOf(input)).pathname);
      return Promise.resolve(new Response('not found', { status: 404 }));
    });
    await expect(waitForDeliveries(notEmulator, { scanIds: ['s1'], playRetries: true, timeoutMs: 1_000 })).rejects.toBeInstanceOf(
      NotAnEmulatorError,
    );
    expect(paths).toEqual(['/_scanctl/info']);
  });
});
