import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../src/contract/choices.js';
import { rebuildDerivedTables } from '../../../src/store/derived.js';
import { EXPORT_PAGE_ROWS, exportState, exportStateStream } from '../../../src/emulator/state/export.js';
import { SWEEP, sweepExpired } from '../../../src/emulator/sweeper.js';
import { replayKey } from '../../../src/webhooks/chaos.js';
import { recordScanEvent } from '../../../src/webhooks/outbox.js';
import { DEMO, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { enroll, event, mint, uid } from '../../helpers/device.js';

const DAY = 86_400_000;

/** What every derived table holds, read in a fixed order. */
function derived(emu: TestEmulator) {
  const db = emu.store.db;
  return {
    ordinals: db.prepare('SELECT * FROM delivery_ordinals ORDER BY app_id, ordinal').all(),
    months: db.prepare('SELECT * FROM usage_months ORDER BY app_id, month').all(),
    members: db.prepare('SELECT * FROM usage_members ORDER BY app_id, month, host_user_ref').all(),
  };
}

/** Many deliveries quickly, straight into the outbox as a reported scan queues them. */
function queueDeliveries(emu: TestEmulator, count: number): void {
  emu.store.db.prepare("UPDATE apps SET webhook_url = 'http://127.0.0.1:9/hook' WHERE id = ?").run(DEMO.appId);
  emu.store.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      recordScanEvent(emu.store, emu.ids, emu.clock.now(), {
        type: 'scan.completed',
        appId: DEMO.appId,
        scanId: `scn_flat${i}`,
        hostUserRef: `member_${i % 7}`,
        occurredAt: emu.clock.now(),
        modelVersion: '2026.10.1',
      });
    }
  })();
}

describe('costs that stay flat as the data grows', () => {
  it('BILL-4: usage counted as scans get their outcome equals usage computed from every scan, across months, members and outcomes', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    const report = async (key: string, user: string, statuses: string[], occurredAt: string) => {
      const token = await mint(emu, user, { key });
      const scanId = uid('scn');
      for (const status of statuses) {
        expect(
          (await event(emu, token, { installation_id: installation, scan_id: scanId, status, occurred_at: occurredAt })).status,
        ).toBeLessThan(300);
      }
    };
    for (const [i, key] of [DEMO.liveSecret, DEMO.testSecret, DEMO.liveSecret].entries()) {
      await report(key, `m${i % 2}`, ['completed'], '2026-11-20T10:00:00Z');
      await report(key, `m${i % 2}`, ['started', 'completed'], '2026-10-31T23:59:59Z');
      await report(key, 'm2', ['failed'], '2026-11-01T00:00:00Z');
      await report(key, 'm3', ['started', 'abandoned'], '2026-11-21T00:00:00Z');
      await report(key, 'm0', ['completed', 'completed'], '2026-11-21T00:00:00Z');
    }
    const counted = derived(emu);
    const usage = (await emu.call('GET', '/_scanctl/usage')).body.data;
    expect(usage.map((u: { month: string }) => u.month)).toEqual(['2026-10', '2026-11']);
    expect(usage[1]).toMatchObject({
      monthly_active_users: 1,
      billable_scans: 4,
      test_scans: 4,
      test_active_users: 2,
      failed_scans: 3,
      abandoned_scans: 3,
    });
    // The same numbers as the aggregate over every scan that usage used to run.
    const fromScans = emu.store.db
      .prepare(
        `
      SELECT app_id, month, count(DISTINCT CASE WHEN billable = 1 THEN host_user_ref END) AS monthly_active_users,
        sum(billable = 1) AS billable_scans, sum(env = 'test') AS test_scans,
        count(DISTINCT CASE WHEN env = 'test' AND status = 'completed' THEN host_user_ref END) AS test_active_users,
        sum(status = 'completed') AS completed_scans, sum(status = 'failed') AS failed_scans, sum(status = 'abandoned') AS abandoned_scans
      FROM (SELECT *, strftime('%Y-%m', occurred_at / 1000, 'unixepoch') AS month FROM scans WHERE status != 'started')
      GROUP BY app_id, month ORDER BY month, app_id`,
      )
      .all();
    expect(usage).toEqual(fromScans.map((row) => ({ object: 'usage', ...(row as object) })));
    rebuildDerivedTables(emu.store.db);
    expect(derived(emu)).toEqual(counted);
  });

  it('a delivery keeps the position among its app deliveries that chaos replays by, through an export and import', async () => {
    const emu = testEmulator();
    queueDeliveries(emu, 40);
    const ids = emu.store.db
      .prepare<[], { id: string }>('SELECT id FROM deliveries ORDER BY rowid')
      .all()
      .map((r) => r.id);
    expect(ids.map((id) => replayKey(emu.store, id))).toEqual(ids.map((_, i) => `#${i}`));
    const file = JSON.parse(JSON.stringify(exportState(emu, { includeSecrets: true })));
    expect(Object.keys(file.tables)).not.toContain('delivery_ordinals');
    expect((await emu.call('POST', '/_scanctl/state/import', { json: file })).status).toBe(200);
    // After an import the rows are in primary-key order: positions follow the stored order, as counted before.
    const after = emu.store.db
      .prepare<[], { id: string }>('SELECT id FROM deliveries ORDER BY rowid')
      .all()
      .map((r) => r.id);
    expect(after.map((id) => replayKey(emu.store, id))).toEqual(after.map((_, i) => `#${i}`));
  });

  it('state export streams the same bytes as the whole object, page after page', async () => {
    const emu = testEmulator();
    queueDeliveries(emu, Math.floor(EXPORT_PAGE_ROWS * 2.5));
    const streamed = await new Response(exportStateStream(emu, {})).text();
    expect(streamed).toBe(JSON.stringify(exportState(emu, {})));
    const served = await emu.app.request('/_scanctl/state?include_secrets=1');
    expect(served.headers.get('content-type')).toBe('application/json');
    expect(await served.text()).toBe(JSON.stringify(exportState(emu, { includeSecrets: true })));
  });

  it('CHOICE-7: expired idempotency keys are swept in bounded batches; a key still within its lifetime still replays', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    const db = emu.store.db;
    const insert = db.prepare(
      "INSERT INTO idempotency_keys (app_id, key, request_hash, status, response, created_at) VALUES (?, ?, 'x', 201, '{}', ?)",
    );
    db.transaction(() => {
      for (let i = 0; i < SWEEP.batch + 10; i++) insert.run(DEMO.appId, `old_${i}`, emu.clock.now() - 2 * DAY);
    })();
    const body = { installation_id: installation, scan_id: uid('scn'), status: 'completed' };
    const token = await mint(emu, 'm_live');
    expect((await event(emu, token, body, 'idem_kept')).status).toBe(201);
    const count = () => (db.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n;
    expect(sweepExpired(emu)).toBe(SWEEP.batch);
    expect(sweepExpired(emu)).toBe(10);
    expect(sweepExpired(emu)).toBe(0);
    expect(count()).toBe(1);
    const replay = await event(emu, token, body, 'idem_kept');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await emu.advance(CHOICES.idempotencyKeyLifetimeMs);
    expect(sweepExpired(emu)).toBe(1);
  });
});
