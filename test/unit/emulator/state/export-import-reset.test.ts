import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../../../src/store/db.js';
import { META } from '../../../../src/store/meta-keys.js';
import { recordScanEvent } from '../../../../src/webhooks/outbox.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

async function populate(emu: TestEmulator): Promise<string> {
  for (let i = 0; i < 3; i++) {
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: `member_${i}` } })).status).toBe(201);
  }
  await emu.call('POST', '/_scanctl/faults', {
    json: { method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', count: 3, seed: 1 },
  });
  await emu.call('PUT', '/_scanctl/apps/app_demo/chaos', { json: { duplicate: 0.2, seed: 7 } });
  await emu.advance(90 * 60_000);
  // A runtime-issued signing secret on the trial app (not from the fixtures).
  const cookie = await portalCookie(emu, 'acct_trial');
  const patched = await emu.call('PATCH', '/v1/apps/app_trial', { json: { webhook_url: 'http://127.0.0.1:9/hook' }, headers: { cookie } });
  expect(patched.status).toBe(200);
  return patched.body.webhook_secret as string;
}

const exportText = async (emu: TestEmulator, query = '') => {
  const r = await emu.app.request(`/_scanctl/state${query}`);
  expect(r.status).toBe(200);
  return JSON.stringify(await r.json(), null, 2);
};

describe('state export / import / reset', () => {
  it('exports every table sorted by name, rows by primary key, keys sorted, with schema version and clock offset', async () => {
    const emu = testEmulator();
    await populate(emu);
    const state = JSON.parse(await exportText(emu));
    expect(state).toMatchObject({ format: 'scanctl-state', format_version: 1, includes_secrets: false, clock_offset_ms: 90 * 60_000 });
    expect(state.schema_version).toBe(schemaVersion(emu.store.db));
    const names = Object.keys(state.tables);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['accounts', 'apps', 'api_keys', 'sessions', 'faults', 'chaos_settings', 'meta']));
    const ids = state.tables.sessions.map((s: { id: string }) => s.id);
    expect(ids).toEqual([...ids].sort());
    for (const row of state.tables.apps) expect(Object.keys(row)).toEqual(Object.keys(row).sort());
    // The clock offset lives at the top, not (possibly stale) in meta.
    expect(state.tables.meta.find((m: { key: string }) => m.key === META.clockOffset)).toBeUndefined();
  });

  it('never puts a secret in plain text unless asked: keys and tokens are hashes, signing secrets null with their hint', async () => {
    const emu = testEmulator();
    const issued = await populate(emu);
    const text = await exportText(emu);
    for (const secret of [DEMO.testSecret, DEMO.liveSecret, DEMO.webhookSecret, issued]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/vst_[A-Za-z0-9]{16}/);
    const apps = JSON.parse(text).tables.apps;
    expect(apps.find((a: any) => a.id === 'app_demo')).toMatchObject({ webhook_secret: null, webhook_secret_hint: 'whsec_...0001' });
    expect(apps[0]).not.toHaveProperty('webhook_secret_sealed');
    const withSecrets = JSON.parse(await exportText(emu, '?include_secrets=1'));
    expect(withSecrets.includes_secrets).toBe(true);
    expect(withSecrets.tables.apps.find((a: any) => a.id === 'app_trial').webhook_secret).toBe(issued);
  });

  it('round-trips exactly: export -> reset -> import -> export is byte-identical, the clock offset included', async () => {
    const emu = testEmulator();
    await populate(emu);
    const before = await exportText(emu, '?include_secrets=1');
    const reset = await emu.call('POST', '/_scanctl/state/reset');
    expect(reset.body).toMatchObject({ object: 'state_reset', apps: ['app_demo', 'app_trial'] });
    expect(await exportText(emu, '?include_secrets=1')).not.toEqual(before);
    const imported = await emu.call('POST', '/_scanctl/state/import', { body: before, headers: { 'content-type': 'application/json' } });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ object: 'state_import', clock_offset_ms: 90 * 60_000, apps_without_signing_secret: [] });
    expect(await exportText(emu, '?include_secrets=1')).toBe(before);
    // And the imported state works: the fixture key still mints, the fault is back with its remaining count.
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).status).toBe(429);
  });

  it('without --include-secrets, a round trip keeps the fixture secret (same hint) and names apps whose secret is lost', async () => {
    const emu = testEmulator();
    await populate(emu);
    const before = await exportText(emu);
    await emu.call('POST', '/_scanctl/state/reset');
    const imported = await emu.call('POST', '/_scanctl/state/import', { body: before, headers: { 'content-type': 'application/json' } });
    expect(imported.body.apps_without_signing_secret).toEqual(['app_trial']);
    expect(await exportText(emu)).toBe(before);
    const secret = await emu.call('GET', '/_scanctl/apps/app_demo/webhook-secret');
    expect(secret.body.webhook_secret).toBe(DEMO.webhookSecret);
  });

  it('an import into another emulator (another sealing key) re-seals plain secrets', async () => {
    const a = testEmulator();
    const issued = await populate(a);
    const text = await exportText(a, '?include_secrets=1');
    const b = testEmulator();
    expect((await b.call('POST', '/_scanctl/state/import', { body: text, headers: { 'content-type': 'application/json' } })).status).toBe(
      200,
    );
    expect((await b.call('GET', '/_scanctl/apps/app_trial/webhook-secret')).body.webhook_secret).toBe(issued);
    expect(b.clock.offsetMs).toBe(90 * 60_000);
  });

  it('a delivery in flight is exported as stored, in flight; imported, it is pending and due (no one is sending it)', async () => {
    const emu = testEmulator();
    await populate(emu);
    const now = emu.clock.now();
    recordScanEvent(emu.store, emu.ids, now, {
      type: 'scan.completed',
      appId: 'app_trial',
      scanId: 's1',
      hostUserRef: 'm',
      occurredAt: now,
      modelVersion: 'v1',
    });
    const [claimed] = emu.store.webhooks.claimDue(now, 10);
    expect(emu.store.webhooks.deliveryById(claimed!.id)!.status).toBe('in_flight');
    const file = JSON.parse(await exportText(emu, '?include_secrets=1'));
    const row = file.tables.deliveries.find((d: { id: string }) => d.id === claimed!.id);
    expect(row.status).toBe('in_flight');
    expect((await emu.call('POST', '/_scanctl/state/import', { json: file })).status).toBe(200);
    expect(emu.store.webhooks.deliveryById(claimed!.id)!.status).toBe('pending');
    // The claim made before the import is forgotten: the imported delivery is claimed afresh.
    expect(emu.store.webhooks.claimDue(emu.clock.now(), 10).map((d) => d.id)).toEqual([claimed!.id]);
  });

  it('refuses a file from a newer schema, an unknown table or column, a broken reference, and changes nothing', async () => {
    const emu = testEmulator();
    await populate(emu);
    const good = JSON.parse(await exportText(emu));
    const attempts: Array<[unknown, RegExp]> = [
      [{ ...good, schema_version: good.schema_version + 1 }, /newer than this emulator/],
      [{ ...good, tables: { ...good.tables, nope: [] } }, /table "nope"/],
      [{ ...good, tables: { ...good.tables, accounts: [{ ...good.tables.accounts[0], extra: 1 }] } }, /column "extra"/],
      [{ ...good, tables: { ...good.tables, accounts: [] } }, /refers to a accounts row|cannot be stored/],
      [{ ...good, format: 'other' }, /format/],
    ];
    for (const [file, message] of attempts) {
      const r = await emu.call('POST', '/_scanctl/state/import', { json: file });
      expect(r.status).toBe(400);
      expect(expectErrorBody(r.body).message).toMatch(message);
    }
    expect(JSON.parse(await exportText(emu))).toEqual(good);
  });

  it('reset empties everything (faults and chaos too) and re-seeds the fixtures; the clock keeps its time', async () => {
    const emu = testEmulator();
    await populate(emu);
    await emu.call('POST', '/_scanctl/state/reset');
    const state = JSON.parse(await exportText(emu));
    expect(state.tables.sessions).toEqual([]);
    expect(state.tables.faults).toEqual([]);
    expect(state.tables.chaos_settings).toEqual([]);
    expect(state.tables.apps.map((a: any) => a.id)).toEqual(['app_demo', 'app_trial']);
    expect(state.clock_offset_ms).toBe(90 * 60_000);
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).status).toBe(201);
  });
});
