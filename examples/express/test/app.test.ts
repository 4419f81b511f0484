import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from 'scanctl/verify';
import { startEmulator, type Checkpoint, type EmulatorHandle } from 'scanctl';
import { createApp, memoryStore, type CompletedScan } from '../src/app.ts';

/**
 * The Express backend against one emulator in the test's own process (scanctl's test kit): a frozen
 * clock and a seed, a checkpoint restored after each test, retries played on the virtual clock.
 */
let emu: EmulatorHandle;
let baseline: Checkpoint;
let server: Server;
let url: string;
/** The store the app writes to: a fresh one per test, and a switch that makes the next write throw. */
let store = memoryStore();
let failNextWrite = false;

beforeAll(async () => {
  emu = await startEmulator({ clock: { start: '2026-03-10T09:00:00Z', frozen: true }, seed: 42 });
  const app = createApp({
    serviceUrl: emu.baseUrl,
    secretKey: emu.secretKey,
    webhookSecret: emu.webhookSecret,
    // The injected store: your database, failing once when a test says so.
    store: {
      saveCompletedScan(scanId: string, scan: CompletedScan) {
        if (failNextWrite) {
          failNextWrite = false;
          throw new Error('database is locked');
        }
        store.saveCompletedScan(scanId, scan);
      },
      saveResult: (member, scanId, result) => store.saveResult(member, scanId, result),
      deleteResults: (member) => store.deleteResults(member),
    },
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await emu.updateApp({ webhook_url: `${url}/webhooks`, results_delivery_enabled: true });
  baseline = await emu.checkpoint('baseline');
});
afterEach(async () => {
  await baseline.restore(); // the emulator as the suite set it up: no scan, no delivery of the test before
  store = memoryStore();
  failNextWrite = false;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await emu.close();
});

const mint = (member?: string) =>
  fetch(`${url}/scan-sessions`, { method: 'POST', headers: member === undefined ? {} : { 'x-member-id': member } });

describe('the Express backend against scanctl', () => {
  it('SES-2: mints a session token through the app for the signed-in member, 401 for nobody', async () => {
    const minted = await mint('member_1');
    expect(minted.status).toBe(201);
    const session = (await minted.json()) as { session_token: string; expires_at: string };
    expect(session.session_token).toMatch(/^vst_/);
    expect(session.expires_at).toBe('2026-03-10T09:15:00.000Z');
    expect((await mint()).status).toBe(401);
  });

  it('WH-9: its own webhook handler fails once (the injected store throws), answers 500, and the retry on the virtual clock records the scan', async () => {
    failNextWrite = true;
    const scan = await emu.simulateScan({ user: 'member_2' });
    // playRetries moves the frozen clock to the next attempt once the failed one is recorded, no further.
    const deliveries = await emu.waitForDeliveries({ scanId: scan.scan_id, playRetries: true });
    const completed = deliveries.find((d) => d.event_type === 'scan.completed');
    expect(completed?.attempt_log.map((a) => a.status)).toEqual([500, 200]);
    expect([...store.completedScans]).toEqual([[scan.scan_id, { member: 'member_2', occurredAt: '2026-03-10T09:00:00.000Z' }]]);
    expect(emu.clock.now().toISOString()).toBe('2026-03-10T09:00:30.000Z'); // one retry gap: 30 s
  });

  it('WH-5: a delivery sent again (same Service-Event-Id) is handled once; a forged signature is refused', async () => {
    await emu.simulateScan({ user: 'member_3' });
    const deliveries = await emu.waitForDeliveries();
    const completed = deliveries.find((d) => d.event_type === 'scan.completed');
    if (completed === undefined) throw new Error('no scan.completed delivery');
    // The recorded request: its exact headers (names as sent) and signed body.
    const { headers, body } = completed.request;
    const again = await fetch(`${url}/webhooks`, { method: 'POST', headers, body });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true });
    expect(store.completedScans.size).toBe(1);

    const forged = await fetch(`${url}/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'Service-Signature': signPayload(body, 'whsec_somebodyElse') },
      body,
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: 'mismatch' });
  });

  it("DEL-2: deleting a member's results through the app calls DELETE /v1/results and forgets them locally", async () => {
    const scan = await emu.simulateScan({ user: 'member_4' });
    await emu.waitForDeliveries();
    expect(store.results.get('member_4')?.map((r) => r.scanId)).toEqual([scan.scan_id]);
    const deleted = await fetch(`${url}/members/member_4/results`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ member: 'member_4', deleted_at_service: 1 });
    expect(store.results.has('member_4')).toBe(false);
    const [stored] = await emu.scans({ hostUserRef: 'member_4' });
    expect(stored).toMatchObject({ id: scan.scan_id, result_stored: false });
  });

  it('CHOICE-45: each test starts from the checkpoint: the scans and the clock of the tests before are gone', async () => {
    expect(await emu.scans({})).toEqual([]);
    expect(await emu.deliveries()).toEqual([]);
    expect(emu.clock.now().toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect((await emu.app()).results_delivery_enabled).toBe(true);
  });
});
