import { describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../../src/store/db.js';
import { createStore } from '../../../../src/store/index.js';
import type { DeliveryStatus } from '../../../../src/contract/webhooks.js';

// Deliveries of three apps, statuses and creation times interleaved, with ties on created_at.
function seeded() {
  const db = openDatabase(':memory:');
  const store = createStore(db);
  const statuses: DeliveryStatus[] = ['pending', 'succeeded', 'failed', 'cancelled', 'succeeded'];
  const apps = ['app_b', 'app_a', 'app_c'];
  const event = db.prepare(
    "INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at) VALUES (?, ?, 'scan.completed', ?, 'm', '{}', ?)",
  );
  const delivery = db.prepare(
    'INSERT INTO deliveries (id, event_id, app_id, host_user_ref, status, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)',
  );
  for (let i = 0; i < 60; i++) {
    const app = apps[(i * 7) % 3]!;
    const status = statuses[(i * 3) % 5]!;
    const createdAt = 1_000 + Math.floor(i / 4); // four deliveries per millisecond
    event.run(`evt_${i}`, app, `scn_${i}`, createdAt);
    delivery.run(
      `dlv_${String(i).padStart(2, '0')}`,
      `evt_${i}`,
      app,
      `m${i % 5}`,
      status,
      status === 'pending' ? createdAt : null,
      createdAt,
      createdAt,
    );
  }
  // What one ordered query over every app answers (no index needed for 60 rows).
  const expected = (status: string, limit: number) =>
    db
      .prepare<[string, number], string>('SELECT id FROM deliveries WHERE status = ? ORDER BY created_at DESC, rowid DESC LIMIT ?')
      .pluck()
      .all(status, limit);
  return { db, store, expected };
}

describe('delivery lists by status across apps', () => {
  it('each status, newest first across apps, ties in the order queued, cut at the limit: as one ordered query', () => {
    const { store, expected } = seeded();
    for (const status of ['succeeded', 'failed', 'cancelled', 'pending'] as const) {
      for (const limit of [1, 3, 7, 100]) {
        const rows = store.webhooks.deliveries({ status, limit });
        expect(rows.map((r) => r.id)).toEqual(expected(status, limit));
        expect(rows.every((r) => r.status === status && !('seq' in r))).toBe(true);
      }
    }
  });

  it('pending leaves out what the dispatcher claimed, which lists as in flight', () => {
    const { store, expected } = seeded();
    const claimed = store.webhooks.claimDue(10_000, 2).map((r) => r.id);
    expect(claimed).toHaveLength(2);
    expect(store.webhooks.deliveries({ status: 'pending' }).map((r) => r.id)).toEqual(
      expected('pending', 100).filter((id) => !claimed.includes(id)),
    );
    expect(
      store.webhooks
        .deliveries({ status: 'in_flight' })
        .map((r) => r.id)
        .sort(),
    ).toEqual([...claimed].sort());
  });
});

describe("a member's deliveries (webhook wait --user, webhook deliveries --user)", () => {
  it('lists only the deliveries of that host_user_ref, with the app and status filters too, through the deliveries_user index', () => {
    const { db, store } = seeded();
    const all = db
      .prepare<[string, string], string>(
        'SELECT id FROM deliveries WHERE app_id = ? AND host_user_ref = ? ORDER BY created_at DESC, rowid DESC',
      )
      .pluck()
      .all('app_a', 'm2');
    expect(all.length).toBeGreaterThan(1);
    const prepare = vi.spyOn(db, 'prepare');
    expect(store.webhooks.deliveries({ app_id: 'app_a', host_user_ref: 'm2', limit: 1000 }).map((r) => r.id)).toEqual(all);
    const sql = String(prepare.mock.calls.at(-1)?.[0]);
    prepare.mockRestore();
    const succeeded = store.webhooks.deliveries({ app_id: 'app_a', host_user_ref: 'm2', status: 'succeeded', limit: 1000 });
    expect(succeeded.length).toBeGreaterThan(0);
    expect(succeeded.every((r) => r.host_user_ref === 'm2' && r.status === 'succeeded')).toBe(true);
    // The statement the list prepared reads the member's range of deliveries_user, not the app's whole outbox in date order.
    const plan = db
      .prepare<Record<string, string | number>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all({ app_id: 'app_a', host_user_ref: 'm2', limit: 1000 })
      .map((row) => row.detail)
      .join('\n');
    expect(plan).toMatch(/deliveries_user/);
    expect(plan).not.toMatch(/deliveries_app_created/);
  });
});
