import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock, frozenBase } from '../../../../src/clock/clock.js';
import { applyFixtures } from '../../../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../../../src/emulator/fixture-file.js';
import { openDatabase } from '../../../../src/store/db.js';
import { createStore } from '../../../../src/store/index.js';
import { SecretBox } from '../../../../src/util/crypto.js';
import { randomIds } from '../../../../src/util/ids.js';
import { recordScanEvent } from '../../../../src/webhooks/outbox.js';
import { DEMO, FIXTURES_FILE } from '../../../helpers/emulator.js';
import { tempDir } from '../../../helpers/temp.js';

/** A store on the SQLite file at `path`. */
function storeOnFile(path: string) {
  const store = createStore(openDatabase(path));
  const clock = new VirtualClock({ base: frozenBase() });
  return { store, clock };
}

/** A store with the demo app and a webhook URL; `event` queues a delivery. */
function seeded(path: string) {
  const { store, clock } = storeOnFile(path);
  applyFixtures(store, randomIds, SecretBox.random(), clock.now(), readFixtures(FIXTURES_FILE));
  store.apps.updateSettings({ ...store.apps.get(DEMO.appId)!, webhook_url: 'http://127.0.0.1:9/hook', now: clock.now() });
  const event = (scanId: string) =>
    recordScanEvent(store, randomIds, clock.now(), {
      type: 'scan.completed',
      appId: DEMO.appId,
      scanId,
      hostUserRef: 'member_1',
      occurredAt: clock.now(),
      modelVersion: 'm',
    });
  return { store, clock, event };
}

describe('a claimed delivery is written in flight (the outbox rule)', () => {
  it('WH-8: the claim writes in_flight in the database; every read sees it as stored; a restart makes it due again', () => {
    const path = join(tempDir('scanctl-in-flight-'), 'state.db');
    const { store, clock, event } = seeded(path);
    event('scan_claimed');
    const [claimed] = store.webhooks.claimDue(clock.now(), 1);
    event('scan_waiting');
    const id = claimed!.id;
    const app = DEMO.appId;

    // Stored as such: the raw row, not an overlay in this process.
    const raw = store.db.prepare<[string], { status: string }>('SELECT status FROM deliveries WHERE id = ?');
    expect(raw.get(id)!.status).toBe('in_flight');
    expect(claimed!.status).toBe('in_flight');
    expect(store.webhooks.isClaimed(id)).toBe(true);
    expect(store.webhooks.deliveries({ status: 'in_flight' }).map((d) => d.id)).toEqual([id]);
    expect(store.webhooks.deliveries({ status: 'pending' }).map((d) => d.id)).not.toContain(id);
    expect(store.webhooks.deliveries({ app_id: app, status: 'pending' })).toHaveLength(1);
    expect(store.deliveryPages.count(app, 'in_flight')).toBe(1);
    expect(store.deliveryPages.page({ app_id: app, status: 'in_flight', limit: 10 }).rows.map((d) => d.id)).toEqual([id]);
    // Claimed once: a second claim takes the other one only.
    expect(store.webhooks.claimDue(clock.now(), 10).map((d) => d.id)).not.toContain(id);
    store.db.close();

    // The process dies; the next one opens the same file and its dispatcher starts.
    const { store: reopened, clock: later } = storeOnFile(path);
    expect(reopened.webhooks.status(id)).toBe('in_flight');
    expect(reopened.webhooks.resetInFlight(later.now())).toBe(2);
    expect(reopened.webhooks.status(id)).toBe('pending');
    expect(reopened.webhooks.nextDueAt()).toBe(later.now());
    expect(reopened.webhooks.claimDue(later.now(), 10).map((d) => d.id)).toContain(id);
    reopened.db.close();
  });

  it('DEL-2: a delivery cancelled while in flight takes no outcome and is not claimed again', () => {
    const { store, clock, event } = seeded(':memory:');
    event('scan_1');
    const [claimed] = store.webhooks.claimDue(clock.now(), 1);
    expect(store.webhooks.cancelForMember(DEMO.appId, 'member_1', clock.now())).toEqual([claimed!.id]);
    expect(store.webhooks.isClaimed(claimed!.id)).toBe(false);
    const outcome = {
      id: claimed!.id,
      status: 'succeeded' as const,
      attempts: 1,
      next_attempt_at: null,
      last_status: 204,
      last_error: null,
    };
    expect(store.webhooks.finish(outcome, clock.now())).toBe(false);
    expect(store.webhooks.status(claimed!.id)).toBe('cancelled');
  });

  it('lists one status across apps newest first from the (status, created_at) index', () => {
    const { store } = seeded(':memory:');
    const plan = store.db
      .prepare("EXPLAIN QUERY PLAN SELECT id FROM deliveries d WHERE d.status = 'pending' ORDER BY d.created_at DESC LIMIT 5")
      .all() as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join('\n')).toContain('deliveries_status_created');
  });
});
