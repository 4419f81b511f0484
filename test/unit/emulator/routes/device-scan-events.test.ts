import { describe, expect, it } from 'vitest';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { enroll, event, mint, uid } from '../../../helpers/device.js';

const eventsOf = (emu: TestEmulator, scanId: string) =>
  emu.store.db
    .prepare<[string], { type: string }>('SELECT type FROM events WHERE scan_id = ? ORDER BY created_at, rowid')
    .all(scanId)
    .map((r) => r.type);

describe('POST /v1/scan-events', () => {
  it('DEV-5: requires the Idempotency-Key header (400 idempotency_key_missing, nothing recorded)', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const res = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' }, null);
    expect(res.status).toBe(400);
    expect(expectErrorBody(res.body)).toMatchObject({ code: 'idempotency_key_missing', param: 'Idempotency-Key' });
    const bad = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' }, 'has space');
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data).toEqual([]);
  });

  it('DEV-5: it records the scan (201), with occurred_at from the device, the env of the session, billable', async () => {
    const emu = testEmulator();
    const token = await mint(emu, 'member_7', { key: DEMO.liveSecret });
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    const at = new Date(emu.clock.now() - 90_000).toISOString();
    const started = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'started', occurred_at: at });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      object: 'scan_event',
      duplicate: false,
      scan: { status: 'started', started_at: at, occurred_at: null, billable: false },
    });
    const done = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body.scan).toMatchObject({
      object: 'scan',
      id: scanId,
      app_id: DEMO.appId,
      installation_id: installation,
      host_user_ref: 'member_7',
      env: 'live',
      status: 'completed',
      occurred_at: new Date(emu.clock.now()).toISOString(),
      billable: true,
      reports: 2,
    });
    expect(eventsOf(emu, scanId)).toEqual(['scan.completed']);
  });

  it('CHOICE-7: the same Idempotency-Key and body replays the first answer with Idempotent-Replayed: true', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const body = {
      installation_id: installation,
      scan_id: uid('scn'),
      status: 'completed',
      occurred_at: new Date(emu.clock.now()).toISOString(),
    };
    const first = await event(emu, token, body, 'key-1');
    await emu.advance(60_000);
    const again = await event(emu, token, body, 'key-1');
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // A fresh token of the same app (the device re-authenticated) replays too: keys are scoped per app.
    const fresh = await mint(emu);
    expect((await event(emu, fresh, body, 'key-1')).headers.get('idempotent-replayed')).toBe('true');
    expect(eventsOf(emu, body.scan_id)).toEqual(['scan.completed']);
  });

  it('CHOICE-7: the same Idempotency-Key with another body is 409 idempotency_key_reused; after the lifetime the key is new', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'started' }, 'key-2');
    const reused = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' }, 'key-2');
    expect(reused.status).toBe(409);
    expect(expectErrorBody(reused.body)).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    // Another app may use the same key string independently.
    const trial = await mint(emu, 'm', { key: 'sk_test_trialSecretKey0000000000001' });
    expect(
      (await event(emu, trial, { installation_id: installation, scan_id: scanId, status: 'completed' }, 'key-2')).body.error.code,
    ).toBe('installation_not_enrolled');
    await emu.advance(24 * 3600_000);
    const later = await mint(emu);
    const fresh = await event(
      emu,
      later,
      { installation_id: installation, scan_id: scanId, status: 'completed', occurred_at: new Date(emu.clock.now()).toISOString() },
      'key-2',
    );
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('DEV-6: an offline scan syncs later with a new token and keeps its own occurred_at', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    const offlineAt = new Date(emu.clock.now() + 60_000).toISOString();
    await emu.advance(3 * 24 * 3600_000);
    const stale = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed', occurred_at: offlineAt });
    expect(stale.body.error.code).toBe('session_token_expired');
    const fresh = await mint(emu);
    const synced = await event(emu, fresh, { installation_id: installation, scan_id: scanId, status: 'completed', occurred_at: offlineAt });
    expect(synced.status).toBe(201);
    expect(synced.body.scan.occurred_at).toBe(offlineAt);
    expect(synced.body.scan.recorded_at).toBe(new Date(emu.clock.now()).toISOString());
  });

  it('occurred_at in the future (beyond the skew) or not a date-time is 400 parameter_invalid', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const ahead = new Date(emu.clock.now() + 5 * 60_000 + 1000).toISOString();
    for (const occurred_at of [ahead, 'yesterday', '2026-13-01T00:00:00Z']) {
      const res = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed', occurred_at });
      expect(res.status).toBe(400);
      expect(expectErrorBody(res.body)).toMatchObject({ code: 'parameter_invalid', param: 'occurred_at' });
    }
    const skew = new Date(emu.clock.now() + 4 * 60_000).toISOString();
    expect(
      (await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed', occurred_at: skew })).status,
    ).toBe(201);
  });

  it('a finished scan cannot change outcome (409 scan_conflict); another member cannot report it (409 scan_conflict)', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
    const flip = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'failed' });
    expect(flip.status).toBe(409);
    expect(expectErrorBody(flip.body)).toMatchObject({ code: 'scan_conflict', param: 'status' });
    const other = await mint(emu, 'member_2');
    const stolen = await event(emu, other, { installation_id: installation, scan_id: scanId, status: 'completed' });
    expect(stolen.body.error).toMatchObject({ code: 'scan_conflict', param: 'scan_id' });
  });

  it('events: completed and failed go to the outbox in the scan transaction; abandoned and started send nothing', async () => {
    const emu = testEmulator();
    const installation = await enroll(emu, await mint(emu));
    const ids: Record<string, string> = {};
    for (const outcome of ['completed', 'failed', 'abandoned']) {
      const token = await mint(emu);
      ids[outcome] = uid('scn');
      await event(emu, token, { installation_id: installation, scan_id: ids[outcome], status: 'started' });
      expect(eventsOf(emu, ids[outcome])).toEqual([]);
      await event(emu, token, { installation_id: installation, scan_id: ids[outcome], status: outcome });
    }
    expect(eventsOf(emu, ids.completed!)).toEqual(['scan.completed']);
    expect(eventsOf(emu, ids.failed!)).toEqual(['scan.failed']);
    expect(eventsOf(emu, ids.abandoned!)).toEqual([]);
  });

  it('a refused scan event writes nothing: no scan, no event, no bound token', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    await emu.call('POST', `/_scanctl/installations/${installation}/block`);
    const scanId = uid('scn');
    expect((await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' })).status).toBe(403);
    expect(eventsOf(emu, scanId)).toEqual([]);
    await emu.call('POST', `/_scanctl/installations/${installation}/unblock`);
    // The token was not bound by the refused attempt: it can run another scan id.
    expect((await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' })).status).toBe(201);
  });
});
