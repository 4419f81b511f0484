import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock, frozenBase } from '../../../../src/clock/clock.js';
import { CHOICES } from '../../../../src/contract/choices.js';
import { applyFixtures } from '../../../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../../../src/emulator/fixture-file.js';
import { openDatabase } from '../../../../src/store/db.js';
import { createStore } from '../../../../src/store/index.js';
import { SecretBox } from '../../../../src/util/crypto.js';
import { randomIds } from '../../../../src/util/ids.js';
import { createWebhookEngine } from '../../../../src/webhooks/engine.js';
import { recordScanEvent } from '../../../../src/webhooks/outbox.js';
import { DEMO, FIXTURES_FILE } from '../../../helpers/emulator.js';
import { Condition } from '../../../helpers/wait.js';
import { listenOnLoopback } from '../../../helpers/net.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A receiver on 127.0.0.1 that answers 200, or never (`hang`); counts the requests it holds open at once. */
async function receiver(hang: boolean) {
  const arrived = new Condition();
  const state = { requests: 0, open: 0, mostOpen: 0 };
  const server = http.createServer((req, res) => {
    state.requests += 1;
    state.open += 1;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    res.on('close', () => (state.open -= 1));
    arrived.notify();
    req.resume();
    if (!hang) req.on('end', () => res.end('ok'));
  });
  const { port, close } = await listenOnLoopback(server);
  cleanups.push(close);
  return { url: `http://127.0.0.1:${port}/hook`, state, arrived };
}

describe('fair across receivers (CHOICE-22)', () => {
  it("with 40 deliveries to a hung receiver in flight or waiting, another app's delivery to a healthy receiver is sent while the hung one still holds them all", async () => {
    const hung = await receiver(true);
    const healthy = await receiver(false);
    const store = createStore(openDatabase(':memory:'));
    const clock = new VirtualClock({ base: frozenBase() });
    const box = SecretBox.random();
    const fixtures = readFixtures(FIXTURES_FILE);
    const trial = fixtures.apps.find((app) => app.id === 'app_trial')!;
    trial.webhook_secret = 'whsec_trialSigningSecret000000000000001';
    applyFixtures(store, randomIds, box, clock.now(), fixtures);
    store.apps.updateSettings({ ...store.apps.get(DEMO.appId)!, webhook_url: hung.url, now: clock.now() });
    store.apps.updateSettings({ ...store.apps.get('app_trial')!, webhook_url: healthy.url, now: clock.now() });
    const engine = createWebhookEngine({ store, clock, box, events: { wanted: () => false, emit: () => {} }, userAgent: 'test' });
    cleanups.push(() => engine.stop());
    const scan = (appId: string, scanId: string) =>
      recordScanEvent(store, randomIds, clock.now(), {
        type: 'scan.completed',
        appId,
        scanId,
        hostUserRef: 'member_1',
        occurredAt: clock.now(),
        modelVersion: 'bodyscan-2026.1',
      });

    for (let i = 0; i < 40; i++) scan(DEMO.appId, `scan_hung_${i}`);
    engine.start();
    const perOrigin = CHOICES.webhookConcurrencyPerOrigin;
    await hung.arrived.until(`${perOrigin} requests held by the hung receiver`, () => hung.state.open >= perOrigin);
    // Every one of the 40 is claimed: in flight, or waiting for its origin's turn.
    expect(store.webhooks.deliveries({ app_id: DEMO.appId, status: 'in_flight', limit: 100 })).toHaveLength(40);

    scan('app_trial', 'scan_healthy');
    await healthy.arrived.until('the healthy receiver to get its delivery', () => healthy.state.requests >= 1);
    // It did not wait for a hung attempt to end: none has (they end only at their 10 s timeout).
    expect(hung.state.open).toBe(perOrigin);
    expect(store.webhooks.deliveries({ app_id: DEMO.appId, status: 'in_flight', limit: 100 })).toHaveLength(40);
    // The hung receiver never held more than its share.
    expect(hung.state.mostOpen).toBe(perOrigin);
    expect(hung.state.requests).toBe(perOrigin);
  });
});
