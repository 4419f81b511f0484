import { describe, expect, it } from 'vitest';
import { DEMO, testEmulator } from '../../../helpers/emulator.js';
import { enroll, event, mint, runScan, uid, usageOf } from '../../../helpers/device.js';

const LIVE = DEMO.liveSecret;

describe('billing: monthly active scanning users', () => {
  it('BILL-1: a scan bills exactly when its session was minted with a live key and it completed', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    const billed = await runScan(emu, { key: LIVE, installation, user: 'm1' });
    const scans = (await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data;
    expect(scans.find((s: any) => s.id === billed)).toMatchObject({ env: 'live', status: 'completed', billable: true });
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 1, billable_scans: 1, test_scans: 0 });
  });

  it('BILL-2: a test-key scan is recorded with billable false, never refused, never billed', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    const token = await mint(emu, 'm_test', { key: DEMO.testSecret });
    const res = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' });
    expect(res.status).toBe(201);
    expect(res.body.scan).toMatchObject({ env: 'test', status: 'completed', billable: false });
    expect(await usageOf(emu, '2026-11')).toMatchObject({
      monthly_active_users: 0,
      billable_scans: 0,
      test_scans: 1,
      test_active_users: 1,
      completed_scans: 1,
    });
  });

  it('BILL-3: failed and abandoned scans are never billed, in either mode', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    for (const key of [LIVE, DEMO.testSecret]) {
      await runScan(emu, { key, installation, outcome: 'failed', user: 'm_f' });
      await runScan(emu, { key, installation, outcome: 'abandoned', user: 'm_a' });
    }
    const scans = (await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data;
    expect(scans).toHaveLength(4);
    expect(scans.every((s: any) => s.billable === false)).toBe(true);
    expect(await usageOf(emu, '2026-11')).toMatchObject({
      monthly_active_users: 0,
      billable_scans: 0,
      failed_scans: 2,
      abandoned_scans: 2,
      test_scans: 2,
    });
  });

  it('BILL-4: the unit is the distinct host_user_ref per app per month of occurred_at (UTC)', async () => {
    const emu = testEmulator({ startIso: '2026-11-30T22:00:00.000Z' });
    const installation = await enroll(emu, await mint(emu));
    // Three scans by m1, one by m2 in November; m1 again in December.
    for (const user of ['m1', 'm1', 'm1', 'm2']) await runScan(emu, { key: LIVE, installation, user });
    await emu.advance(3 * 3600_000); // 2026-12-01T01:00Z
    await runScan(emu, { key: LIVE, installation, user: 'm1' });
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 2, billable_scans: 4 });
    expect(await usageOf(emu, '2026-12')).toMatchObject({ monthly_active_users: 1, billable_scans: 1 });
    const all = (await emu.call('GET', '/_scanctl/usage')).body.data;
    expect(all.map((r: any) => `${r.app_id} ${r.month}`)).toEqual(['app_demo 2026-11', 'app_demo 2026-12']);
  });

  it('BILL-4: an offline scan that syncs after a month boundary is billed in the earlier month', async () => {
    const emu = testEmulator({ startIso: '2026-11-30T23:30:00.000Z' });
    const installation = await enroll(emu, await mint(emu));
    const occurredAt = '2026-11-30T23:40:00.000Z';
    await emu.advance(2 * 24 * 3600_000); // syncs on 2026-12-02
    const scanId = await runScan(emu, { key: LIVE, installation, user: 'm_offline', occurredAt });
    const scan = (await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data.find((s: any) => s.id === scanId);
    expect(scan).toMatchObject({ occurred_at: occurredAt, billable: true });
    expect(scan.recorded_at.startsWith('2026-12-02')).toBe(true);
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 1, billable_scans: 1 });
    expect(await usageOf(emu, '2026-12')).toMatchObject({ monthly_active_users: 0, billable_scans: 0 });
  });

  it('BILL-5: a duplicate report of the same scan_id is recorded once and charged once', async () => {
    const emu = testEmulator();
    const token = await mint(emu, 'm_dup', { key: LIVE });
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    const body = { installation_id: installation, scan_id: scanId, status: 'completed' };
    expect((await event(emu, token, body)).status).toBe(201);
    // Lost acknowledgement: the device reports again with a new Idempotency-Key, later with a new token too.
    const dup = await event(emu, token, body);
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ duplicate: true, scan: { reports: 2, billable: true } });
    const later = await mint(emu, 'm_dup', { key: LIVE });
    expect((await event(emu, later, body)).body.duplicate).toBe(true);
    const scans = (await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data;
    expect(scans).toHaveLength(1);
    expect(scans[0].reports).toBe(3);
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 1, billable_scans: 1 });
    // WH-10: the outbox holds one scan.completed for it, however many reports.
    const events = emu.store.db.prepare('SELECT count(*) AS n FROM events WHERE scan_id = ?').get(scanId) as { n: number };
    expect(events.n).toBe(1);
  });

  it('BILL-6: minting a session is never a charge', async () => {
    const emu = testEmulator();
    for (let i = 0; i < 5; i += 1) await mint(emu, `m_${i}`, { key: LIVE });
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 0, billable_scans: 0, test_scans: 0 });
    expect((await emu.call('GET', '/_scanctl/usage')).body.data).toEqual([]);
  });

  it('usage: an unknown app is 404, a malformed month is 400', async () => {
    const emu = testEmulator();
    expect((await emu.call('GET', '/_scanctl/usage?app_id=app_nope')).status).toBe(404);
    const bad = await emu.call('GET', '/_scanctl/usage?month=2026-13');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('month');
  });
});
