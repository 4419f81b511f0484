import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * A claimed delivery stays pending in the database and shows as in flight (migration 0008): every
 * read of a delivery's status must go through the claims (DeliveryClaims.shown for rows,
 * statusClause for filters). These tests fail on a read that does not.
 */
const SRC = fileURLToPath(new URL('../../../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The files that may query the deliveries table, and why. */
const MAY_QUERY_DELIVERIES: Record<string, string> = {
  'store/tables/webhooks.ts': 'the outbox: every row through claims.shown, every status filter through claims.statusClause',
  'store/tables/delivery-pages.ts': "the console's pages: the same",
  'store/derived.ts': 'rebuilds delivery_ordinals from ids and apps (no status)',
};

/** The store's functions over deliveries, each either showing a status (tested below) or not. */
const SHOWS_STATUS = ['deliveryById', 'deliveries', 'status', 'claimDue', 'page', 'row', 'count'];
const NO_STATUS = [
  'insertEvent',
  'eventById',
  'redactResults',
  'insertDelivery',
  'nextDueAt',
  'isClaimed',
  'finish',
  'hold',
  'retryLater',
  'withdraw',
  'pendingResultsOf',
  'cancelForMember',
  'resetInFlight',
  'forgetClaims',
  'claimEpoch',
  'insertAttempt',
  'attemptsOf',
  'holdNewUntil',
  'insertListener',
  'deleteListener',
  'clearListeners',
  'listenerFor',
  'listeners',
  'listenersOf',
];

describe('every read of a delivery status goes through the claims', () => {
  it('no module but the outbox and the console pages queries the deliveries table (migrations and the generic state copy aside)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file).split('\\').join('/');
      if (name.startsWith('store/migrations/') || MAY_QUERY_DELIVERIES[name]) continue;
      if (/\b(FROM|JOIN|UPDATE|INTO)\s+deliveries\b/i.test(readFileSync(file, 'utf8'))) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });

  it('each function of the store over deliveries is known; the ones that show a status show a claimed delivery as in flight', () => {
    const store = createStore(openDatabase(':memory:'));
    const clock = new VirtualClock({ base: frozenBase() });
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
    event('scan_claimed');
    const [claimed] = store.webhooks.claimDue(clock.now(), 1);
    event('scan_waiting');

    // A new function must be classified (and, if it shows a status, checked below) before this passes.
    const known = new Set([...SHOWS_STATUS, ...NO_STATUS]);
    expect(Object.keys(store.webhooks).filter((key) => !known.has(key))).toEqual([]);
    expect(Object.keys(store.deliveryPages).filter((key) => !known.has(key))).toEqual([]);

    const id = claimed!.id;
    const app = DEMO.appId;
    expect(claimed!.status).toBe('in_flight');
    expect(store.webhooks.deliveryById(id)!.status).toBe('in_flight');
    expect(store.webhooks.status(id)).toBe('in_flight');
    expect(store.webhooks.deliveries({ app_id: app }).find((d) => d.id === id)!.status).toBe('in_flight');
    expect(store.webhooks.deliveries({ status: 'in_flight' }).map((d) => d.id)).toEqual([id]);
    expect(store.webhooks.deliveries({ status: 'pending' }).map((d) => d.id)).not.toContain(id);
    expect(store.webhooks.deliveries({ app_id: app, status: 'pending' }).map((d) => d.id)).not.toContain(id);
    expect(store.webhooks.deliveries({ event_id: claimed!.event_id, status: 'in_flight' }).map((d) => d.id)).toEqual([id]);
    expect(store.deliveryPages.row(id)!.status).toBe('in_flight');
    expect(store.deliveryPages.page({ app_id: app, limit: 10 }).rows.find((d) => d.id === id)!.status).toBe('in_flight');
    expect(store.deliveryPages.page({ app_id: app, status: 'in_flight', limit: 10 }).rows.map((d) => d.id)).toEqual([id]);
    expect(store.deliveryPages.count(app, 'in_flight')).toBe(1);
    expect(store.deliveryPages.count(app, 'pending')).toBe(1);
  });
});
