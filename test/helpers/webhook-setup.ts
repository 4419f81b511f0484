import { afterEach, expect } from 'vitest';
import { recordScanEvent, type ScanEventInput } from '../../src/webhooks/outbox.js';
import { DEMO, portalCookie, testEmulator, type TestEmulator } from './emulator.js';
import { startReceiver, type Behaviour, type Receiver } from './webhook-receiver.js';

/** What a test leaves to close (receivers, streams): call once at the top of a file; each test's are run after it, in order. */
export function cleanupAfterEach(): (cleanup: () => unknown) => void {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return (cleanup) => void cleanups.push(cleanup);
}

/** A signed-webhook receiver on loopback, closed after the test. */
export async function receiver(
  cleanup: (c: () => unknown) => void,
  behaviour?: Behaviour,
  secret: string = DEMO.webhookSecret,
): Promise<Receiver> {
  const r = await startReceiver(secret, behaviour);
  cleanup(() => r.close());
  return r;
}

/** The portal's PATCH of the demo app: where its deliveries go, and whether results are delivered. */
export async function pointWebhooksAt(
  emu: TestEmulator,
  url: string,
  settings: { results_delivery_enabled?: boolean } = {},
): Promise<void> {
  const res = await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, {
    headers: { cookie: await portalCookie(emu) },
    json: { webhook_url: url, ...settings },
  });
  expect(res.status).toBe(200);
}

/** An in-process emulator whose demo app delivers to a fresh receiver (unless `url: false`). */
export async function emulatorWithReceiver(
  cleanup: (c: () => unknown) => void,
  options: { behaviour?: Behaviour; results?: boolean; url?: boolean } = {},
): Promise<{ emu: TestEmulator; r: Receiver }> {
  const emu = testEmulator();
  const r = await receiver(cleanup, options.behaviour);
  if (options.url !== false) await pointWebhooksAt(emu, r.url, { results_delivery_enabled: Boolean(options.results) });
  return { emu, r };
}

/** A scan event written to the outbox as the device routes would (the demo app's member_1, now), returning its event id. */
export function recordScan(emu: TestEmulator, fields: Partial<ScanEventInput> & { scanId: string }): string {
  return recordScanEvent(emu.store, emu.ids, emu.clock.now(), {
    type: 'scan.completed',
    appId: DEMO.appId,
    hostUserRef: 'member_1',
    occurredAt: emu.clock.now(),
    modelVersion: 'v1',
    ...fields,
  });
}
