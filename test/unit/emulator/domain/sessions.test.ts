import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../../src/contract/choices.js';
import { sha256Hex } from '../../../../src/util/crypto.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

const START = Date.parse('2026-11-22T10:00:00.000Z');

const mint = (
  emu: TestEmulator,
  json: unknown = { host_user_ref: 'member_1' },
  options: { key?: string; headers?: Record<string, string> } = {},
) => emu.call('POST', '/v1/sessions', { key: options.key ?? DEMO.testSecret, json, headers: options.headers });

function dbBytes(emu: TestEmulator): string {
  return emu.store.db.serialize().toString('latin1');
}

describe('POST /v1/sessions', () => {
  it('AUTH-1: sk_test_ and sk_live_ secret keys both mint', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testSecret, DEMO.liveSecret]) {
      const res = await emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'member_1' } });
      expect(res.status).toBe(201);
      expect(res.body.session_token).toMatch(/^vst_/);
    }
  });

  it('AUTH-2: a publishable key gets 401 publishable_key_used', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testPublishable, DEMO.livePublishable, 'pk_test_short', 'pk_live_']) {
      const res = await emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'member_1' } });
      expect(res.status).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'publishable_key_used' });
    }
  });

  it('SES-1: host_user_ref is required, a string of at most 255 characters', async () => {
    const emu = testEmulator();
    expect((await mint(emu, { host_user_ref: 'x'.repeat(255) })).status).toBe(201);
    const cases: Array<[unknown, string, string]> = [
      [{}, 'parameter_missing', 'host_user_ref'],
      [{ host_user_ref: 'x'.repeat(256) }, 'parameter_invalid', 'host_user_ref'],
      [{ host_user_ref: '' }, 'parameter_invalid', 'host_user_ref'],
      [{ host_user_ref: 42 }, 'parameter_invalid', 'host_user_ref'],
      [{ host_user_ref: null }, 'parameter_invalid', 'host_user_ref'],
      [{ host_user_ref: 'm', scopes: ['scan.read'] }, 'parameter_invalid', 'scopes[0]'],
      [{ host_user_ref: 'm', scopes: 'scan.create' }, 'parameter_invalid', 'scopes'],
      [{ host_user_ref: 'm', scope: ['scan.create'] }, 'parameter_unknown', 'scope'],
    ];
    for (const [json, code, param] of cases) {
      const res = await mint(emu, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'invalid_request_error', code, param });
    }
  });

  it('SES-1: scopes default to [scan.create]; an explicit empty list is kept', async () => {
    const emu = testEmulator();
    const scopesOf = async (json: unknown) => {
      const res = await mint(emu, json);
      expect(res.status).toBe(201);
      return emu.store.sessions.byTokenHash(sha256Hex(res.body.session_token))!.scopes;
    };
    expect(await scopesOf({ host_user_ref: 'm' })).toEqual(['scan.create']);
    expect(await scopesOf({ host_user_ref: 'm', scopes: ['scan.create'] })).toEqual(['scan.create']);
    expect(await scopesOf({ host_user_ref: 'm', scopes: [] })).toEqual([]);
  });

  it('SES-2: 201 with a vst_ token and expires_at exactly 15 minutes after minting (virtual clock)', async () => {
    const emu = testEmulator();
    await emu.advance(90_000);
    const res = await mint(emu);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'session_token']);
    expect(res.body.session_token).toMatch(/^vst_[A-Za-z0-9]{16,}$/);
    expect(res.body.expires_at).toBe(new Date(START + 90_000 + 15 * 60_000).toISOString());
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('SES-3: an Idempotency-Key header gets 400 idempotency_key_not_accepted; two mints give two tokens', async () => {
    const emu = testEmulator();
    const refused = await mint(emu, { host_user_ref: 'member_1' }, { headers: { 'Idempotency-Key': 'abc' } });
    expect(refused.status).toBe(400);
    expect(expectErrorBody(refused.body)).toMatchObject({
      type: 'invalid_request_error',
      code: 'idempotency_key_not_accepted',
      param: 'Idempotency-Key',
    });
    const a = await mint(emu);
    const b = await mint(emu);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.session_token).not.toBe(b.body.session_token);
    // A refused request mints nothing.
    expect(emu.store.sessions.countForApp(DEMO.appId)).toBe(2);
  });

  it('SES-4: the token is stored only as its hash, nowhere in plain text in the database', async () => {
    const emu = testEmulator();
    const res = await mint(emu);
    const token: string = res.body.session_token;
    const row = emu.store.sessions.byTokenHash(sha256Hex(token));
    expect(row).toBeDefined();
    expect(row!.token_hash).toBe(sha256Hex(token));
    const bytes = dbBytes(emu);
    expect(bytes.includes(token)).toBe(false);
    expect(bytes.includes(token.slice(4))).toBe(false);
  });

  it('SES-5: the stored session expires 15 minutes after minting on the virtual clock (device routes check it)', async () => {
    // The device routes refuse an expired token (test/unit/emulator/routes/device-auth.test.ts); here we prove what they read.
    const emu = testEmulator();
    await emu.advance(3_600_000);
    const res = await mint(emu);
    const row = emu.store.sessions.byTokenHash(sha256Hex(res.body.session_token))!;
    expect(row.created_at).toBe(START + 3_600_000);
    expect(row.expires_at - row.created_at).toBe(CHOICES.sessionTokenLifetimeMs);
    expect(CHOICES.sessionTokenLifetimeMs).toBe(15 * 60_000);
    expect(row.scan_id).toBeNull();
  });

  it('SES-9: a quota of 2 refuses the third mint with 429 quota_exceeded until the next UTC day', async () => {
    const emu = testEmulator({ startIso: '2026-11-22T23:59:00.000Z' });
    const set = await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/quota`, { json: { daily_session_quota: 2 } });
    expect(set.status).toBe(200);
    expect(set.body.daily_session_quota).toBe(2);
    expect((await mint(emu)).status).toBe(201);
    expect((await mint(emu, undefined, { key: DEMO.liveSecret })).status).toBe(201);
    for (const key of [DEMO.testSecret, DEMO.liveSecret]) {
      const third = await mint(emu, undefined, { key });
      expect(third.status).toBe(429);
      expect(expectErrorBody(third.body)).toMatchObject({ type: 'rate_limit_error', code: 'quota_exceeded' });
    }
    // Another app's quota is its own.
    expect((await mint(emu, undefined, { key: 'sk_test_trialSecretKey0000000000001' })).status).toBe(201);
    await emu.advance(59_999); // 23:59:59.999, still the same UTC day
    expect((await mint(emu)).status).toBe(429);
    await emu.advance(1); // 00:00:00.000 the next day
    expect((await mint(emu)).status).toBe(201);
    expect((await mint(emu)).status).toBe(201);
    expect((await mint(emu)).status).toBe(429);
  });

  it('SES-9: the default quota is the CHOICE-5 value and a quota of 0 refuses every mint', async () => {
    const emu = testEmulator();
    const app = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}`);
    expect(app.body.daily_session_quota).toBe(CHOICES.defaultDailySessionQuota);
    await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/quota`, { json: { daily_session_quota: 0 } });
    expect((await mint(emu)).body.error.code).toBe('quota_exceeded');
    const bad = await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/quota`, { json: { daily_session_quota: -1 } });
    expect(bad.status).toBe(400);
    expect(expectErrorBody(bad.body)).toMatchObject({ code: 'parameter_invalid', param: 'daily_session_quota' });
  });

  it('SES-10: with a limit of 3 per second the 4th request in the same virtual second gets 429 rate_limited with Retry-After', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 3, startIso: '2026-11-22T10:00:00.250Z' });
    for (let i = 0; i < 3; i++) expect((await mint(emu)).status).toBe(201);
    const limited = await mint(emu);
    expect(limited.status).toBe(429);
    expect(expectErrorBody(limited.body)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).toBe('1');
    // DELETE /v1/results counts against the same key's window.
    const del = await emu.call('DELETE', '/v1/results?host_user_ref=m', { key: DEMO.testSecret });
    expect(del.status).toBe(429);
    // Another key has its own window.
    expect((await mint(emu, undefined, { key: DEMO.liveSecret })).status).toBe(201);
    await emu.advance(749); // 10:00:00.999
    expect((await mint(emu)).status).toBe(429);
    await emu.advance(1); // the next virtual second
    expect((await mint(emu)).status).toBe(201);
  });

  it('SES-10: the limit is configurable at run time and 0 turns it off', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 50; i++) expect((await mint(emu)).status).toBe(201);
    emu.config.rateLimitPerSecond = 1;
    expect((await mint(emu)).status).toBe(201);
    expect((await mint(emu)).status).toBe(429);
  });

  it('BILL-6: minting is never a charge (no scan is recorded)', async () => {
    const emu = testEmulator();
    await mint(emu);
    const scans = emu.store.db.prepare('SELECT count(*) AS n FROM scans').get() as { n: number };
    expect(scans.n).toBe(0);
  });
});
