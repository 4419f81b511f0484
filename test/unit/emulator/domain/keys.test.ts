import { describe, expect, it } from 'vitest';
import { HOUR } from '../../../../src/contract/choices.js';
import { sha256Hex } from '../../../../src/util/crypto.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

const TRIAL = { appId: 'app_trial', accountId: 'acct_trial', testSecret: 'sk_test_trialSecretKey0000000000001' };

const mint = (
  emu: TestEmulator,
  key: string | undefined,
  extra: { headers?: Record<string, string>; json?: unknown; path?: string } = {},
) => emu.call('POST', extra.path ?? '/v1/sessions', { key, json: extra.json ?? { host_user_ref: 'member_1' }, headers: extra.headers });

/** A control-plane POST; a route that takes no body gets none (CHOICE-53). */
const control = (emu: TestEmulator, path: string, json?: unknown) =>
  emu.call('POST', `/_scanctl${path}`, json === undefined ? {} : { json });

async function expectMintError(emu: TestEmulator, key: string, status: number, code: string) {
  const res = await mint(emu, key);
  expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(status);
  const error = expectErrorBody(res.body);
  expect(error.code).toBe(code);
  return error;
}

describe('secret keys on POST /v1/sessions', () => {
  it('AUTH-3: malformed secret keys get 401 invalid_api_key (CHOICE-1)', async () => {
    const emu = testEmulator();
    const malformed = [
      'sk_test_short',
      'sk_test_has-dash-and-more-characters',
      'sk_prod_demoSecretKey00000000000001',
      'sk_demoSecretKey00000000000001',
      'demoSecretKey00000000000001',
      `sk_test_${'a'.repeat(200)}`,
      'vst_demoSecretKey00000000000001',
    ];
    for (const key of malformed) {
      const error = await expectMintError(emu, key, 401, 'invalid_api_key');
      expect(error.type).toBe('authentication_error');
      expect(error.message).not.toContain(key.slice(8));
    }
    // Not a bearer header at all, or none.
    for (const authorization of [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      DEMO.testSecret,
      `Bearer ${DEMO.testSecret} extra`,
      'Token x',
    ]) {
      const res = await emu.call('POST', '/v1/sessions', { json: { host_user_ref: 'm' }, headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const none = await emu.call('POST', '/v1/sessions', { json: { host_user_ref: 'm' } });
    expect(none.status).toBe(401);
    expect(expectErrorBody(none.body).code).toBe('invalid_api_key');
  });

  it('AUTH-3: an unknown but well-formed secret key gets 401 invalid_api_key, and its message shows only the redacted key', async () => {
    const emu = testEmulator();
    const unknown = 'sk_test_thisKeyDoesNotExist00000000009';
    const error = await expectMintError(emu, unknown, 401, 'invalid_api_key');
    expect(error.message).toContain('sk_test_...0009');
    expect(error.message).not.toContain(unknown);
    await expectMintError(emu, 'sk_live_thisKeyDoesNotExist00000000009', 401, 'invalid_api_key');
    // "Bearer" is case-insensitive and the known key still works.
    const res = await emu.call('POST', '/v1/sessions', {
      json: { host_user_ref: 'm' },
      headers: { authorization: `bearer ${DEMO.testSecret}` },
    });
    expect(res.status).toBe(201);
  });

  it('AUTH-5: a revoked key gets 403 key_revoked; revocation is final', async () => {
    const emu = testEmulator();
    const revoked = await control(emu, `/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ object: 'api_key', env: 'test', kind: 'secret', state: 'revoked' });
    expect(revoked.body.secret).toBeUndefined();
    const error = await expectMintError(emu, DEMO.testSecret, 403, 'key_revoked');
    expect(error.type).toBe('permission_error');
    // The live key is untouched.
    expect((await mint(emu, DEMO.liveSecret)).status).toBe(201);
    for (const action of ['revoke', 'suspend', 'reinstate']) {
      const again = await control(emu, `/apps/${DEMO.appId}/keys/${action}`, { key_id: revoked.body.id });
      expect(again.status).toBe(409);
      expect(expectErrorBody(again.body).code).toBe('key_state_conflict');
    }
    await emu.advance(100 * HOUR);
    await expectMintError(emu, DEMO.testSecret, 403, 'key_revoked');
  });

  it('AUTH-6: a suspended key gets 403 key_suspended until reinstated', async () => {
    const emu = testEmulator();
    const suspended = await control(emu, `/apps/${DEMO.appId}/keys/suspend`, { env: 'live' });
    expect(suspended.body.state).toBe('suspended');
    const error = await expectMintError(emu, DEMO.liveSecret, 403, 'key_suspended');
    expect(error.type).toBe('permission_error');
    expect((await mint(emu, DEMO.testSecret)).status).toBe(201);
    expect((await control(emu, `/apps/${DEMO.appId}/keys/suspend`, { env: 'live' })).body.error.code).toBe('key_state_conflict');
    const rotate = await control(emu, `/apps/${DEMO.appId}/keys/rotate`, { env: 'live' });
    expect(rotate.status).toBe(409);
    expect(expectErrorBody(rotate.body).code).toBe('key_state_conflict');
    const reinstated = await control(emu, `/apps/${DEMO.appId}/keys/reinstate`, { env: 'live' });
    expect(reinstated.body.state).toBe('active');
    expect((await mint(emu, DEMO.liveSecret)).status).toBe(201);
    const notSuspended = await control(emu, `/apps/${DEMO.appId}/keys/reinstate`, { env: 'live' });
    expect(notSuspended.status).toBe(409);
  });

  it('AUTH-7: every key of a suspended account gets 403 account_suspended until the account is reinstated', async () => {
    const emu = testEmulator();
    const suspended = await control(emu, `/accounts/${DEMO.accountId}/suspend`);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({
      id: DEMO.accountId,
      object: 'account',
      suspended: true,
      suspended_at: '2026-11-22T10:00:00.000Z',
    });
    for (const key of [DEMO.testSecret, DEMO.liveSecret]) {
      const error = await expectMintError(emu, key, 403, 'account_suspended');
      expect(error.type).toBe('permission_error');
    }
    // Other accounts are untouched.
    expect((await mint(emu, TRIAL.testSecret)).status).toBe(201);
    const reinstated = await control(emu, `/accounts/${DEMO.accountId}/reinstate`);
    expect(reinstated.body).toMatchObject({ suspended: false, suspended_at: null });
    expect((await mint(emu, DEMO.testSecret)).status).toBe(201);
    const missing = await control(emu, '/accounts/acct_nope/suspend');
    expect(missing.status).toBe(404);
    expect(expectErrorBody(missing.body)).toMatchObject({ code: 'resource_missing', param: 'account_id' });
  });

  it('AUTH-8: a rotated key works until grace_until - 1 ms and is key_revoked at grace_until; the replacement works at once', async () => {
    const emu = testEmulator();
    await emu.advance(1234);
    const rotated = await control(emu, `/apps/${DEMO.appId}/keys/rotate`, { env: 'test' });
    expect(rotated.status).toBe(201);
    const [replacement, previous] = rotated.body.data;
    expect(replacement.secret).toMatch(/^sk_test_[A-Za-z0-9]{16,}$/);
    expect(replacement.state).toBe('active');
    expect(previous.state).toBe('rotating');
    expect(previous.secret).toBeUndefined();
    expect(previous.replaced_by).toBe(replacement.id);
    const graceUntil = Date.parse('2026-11-22T10:00:01.234Z') + 24 * HOUR;
    expect(previous.grace_until).toBe(new Date(graceUntil).toISOString());

    expect((await mint(emu, replacement.secret)).status).toBe(201);
    expect((await mint(emu, DEMO.testSecret)).status).toBe(201);
    await emu.advance(24 * HOUR - 1);
    expect(emu.clock.now()).toBe(graceUntil - 1);
    expect((await mint(emu, DEMO.testSecret)).status).toBe(201);
    await emu.advance(1);
    const error = await expectMintError(emu, DEMO.testSecret, 403, 'key_revoked');
    expect(error.message).toMatch(/rotated/);
    expect((await mint(emu, replacement.secret)).status).toBe(201);

    const list = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/keys`);
    const old = list.body.data.find((k: { id: string }) => k.id === previous.id);
    expect(old.state).toBe('revoked');
    // The replacement is now the current key: rotating again rotates it.
    const again = await control(emu, `/apps/${DEMO.appId}/keys/rotate`, { env: 'test' });
    expect(again.body.data[1].id).toBe(replacement.id);
  });

  it('AUTH-9: the environment is fixed by the key; nothing in the request can change it', async () => {
    const emu = testEmulator();
    const envOf = (token: string) => emu.store.sessions.byTokenHash(sha256Hex(token))!.env;
    const refused = await mint(emu, DEMO.testSecret, { json: { host_user_ref: 'm', env: 'live' } });
    expect(refused.status).toBe(400);
    expect(expectErrorBody(refused.body)).toMatchObject({ code: 'parameter_unknown', param: 'env' });
    // A query parameter is refused like any undeclared one (CHOICE-14); headers are ignored.
    const withQuery = await mint(emu, DEMO.testSecret, { path: '/v1/sessions?env=live&livemode=true' });
    expect(withQuery.status).toBe(400);
    expect(expectErrorBody(withQuery.body)).toMatchObject({ code: 'parameter_unknown', param: 'env' });
    const withHeaders = await mint(emu, DEMO.testSecret, {
      headers: { 'Scanctl-Env': 'live', 'Stripe-Livemode': 'true', 'X-Env': 'live' },
    });
    expect(withHeaders.status).toBe(201);
    expect(envOf(withHeaders.body.session_token)).toBe('test');
    const live = await mint(emu, DEMO.liveSecret, { headers: { 'X-Env': 'test' } });
    expect(envOf(live.body.session_token)).toBe('live');
  });

  it('AUTH-10: live keys need a billing profile and terms (403 live_keys_not_allowed); one pair per env (409 key_exists)', async () => {
    const emu = testEmulator();
    const live = await control(emu, `/apps/${TRIAL.appId}/keys`, { env: 'live' });
    expect(live.status).toBe(403);
    expect(expectErrorBody(live.body)).toMatchObject({ type: 'permission_error', code: 'live_keys_not_allowed' });
    const test = await control(emu, `/apps/${TRIAL.appId}/keys`, { env: 'test' });
    expect(test.status).toBe(409);
    expect(expectErrorBody(test.body)).toMatchObject({ type: 'invalid_request_error', code: 'key_exists' });
    const demoLive = await control(emu, `/apps/${DEMO.appId}/keys`, { env: 'live' });
    expect(demoLive.status).toBe(409);

    // Issued separately: revoking the test pair and issuing a new one leaves live alone.
    await control(emu, `/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    const issued = await control(emu, `/apps/${DEMO.appId}/keys`, { env: 'test' });
    expect(issued.status).toBe(201);
    const [secret, publishable] = issued.body.data;
    expect(secret).toMatchObject({ env: 'test', kind: 'secret', state: 'active' });
    expect(publishable).toMatchObject({ env: 'test', kind: 'publishable', state: 'active' });
    expect(secret.secret).toMatch(/^sk_test_/);
    expect(publishable.secret).toMatch(/^pk_test_/);
    expect((await mint(emu, secret.secret)).status).toBe(201);
    expect((await mint(emu, DEMO.liveSecret)).status).toBe(201);
    expect((await mint(emu, publishable.secret)).body.error.code).toBe('publishable_key_used');

    const bad = await control(emu, `/apps/${DEMO.appId}/keys`, { env: 'prod' });
    expect(bad.status).toBe(400);
    expect(expectErrorBody(bad.body)).toMatchObject({ code: 'parameter_invalid', param: 'env' });
    const noApp = await control(emu, '/apps/app_nope/keys', { env: 'test' });
    expect(noApp.status).toBe(404);
    expect(expectErrorBody(noApp.body)).toMatchObject({ code: 'resource_missing', param: 'app_id' });
  });

  it('AUTH-11: the secret is shown once at issuance; afterwards only sk_test_...abcd, and never in the database file', async () => {
    const emu = testEmulator();
    await control(emu, `/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    const issued = await control(emu, `/apps/${DEMO.appId}/keys`, { env: 'test' });
    const secret: string = issued.body.data[0].secret;
    const rotated = await control(emu, `/apps/${DEMO.appId}/keys/rotate`, { env: 'test' });
    const rotatedSecret: string = rotated.body.data[0].secret;
    expect(rotatedSecret).toMatch(/^sk_test_/);

    const list = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/keys`);
    const text = JSON.stringify(list.body);
    for (const s of [secret, rotatedSecret, DEMO.testSecret, DEMO.liveSecret]) expect(text).not.toContain(s);
    for (const key of list.body.data) expect(key.secret).toBeUndefined();
    const displays = list.body.data.filter((k: { kind: string }) => k.kind === 'secret').map((k: { display: string }) => k.display);
    expect(displays).toContain(`sk_test_...${secret.slice(-4)}`);
    expect(displays).toContain(`sk_test_...${rotatedSecret.slice(-4)}`);
    expect(displays).toContain(`sk_live_...${DEMO.liveSecret.slice(-4)}`);
    for (const d of displays) expect(d).toMatch(/^sk_(test|live)_\.\.\.[A-Za-z0-9]{4}$/);

    const bytes = emu.store.db.serialize().toString('latin1');
    for (const s of [secret, rotatedSecret, DEMO.testSecret, DEMO.liveSecret]) {
      expect(bytes.includes(s)).toBe(false);
      expect(bytes.includes(s.slice(8))).toBe(false);
    }
    expect(bytes.includes(sha256Hex(secret))).toBe(true);
  });

  it('AUTH-12: a publishable key cannot call any backend operation (sessions and results)', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testPublishable, DEMO.livePublishable]) {
      const minted = await mint(emu, key);
      expect(minted.status).toBe(401);
      expect(expectErrorBody(minted.body).code).toBe('publishable_key_used');
      const deleted = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key });
      expect(deleted.status).toBe(401);
      expect(expectErrorBody(deleted.body)).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    }
  });

  it('CHOICE-8: key actions by key_id, errors for keys of other apps and for apps without a current key', async () => {
    const emu = testEmulator();
    const list = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/keys`);
    expect(list.body.data).toHaveLength(4);
    const livePublishable = list.body.data.find((k: { env: string; kind: string }) => k.env === 'live' && k.kind === 'publishable');
    expect(livePublishable.display).toBe(DEMO.livePublishable);
    const other = await control(emu, `/apps/${TRIAL.appId}/keys/suspend`, { key_id: livePublishable.id });
    expect(other.status).toBe(404);
    expect(expectErrorBody(other.body)).toMatchObject({ code: 'resource_missing', param: 'key_id' });
    const noLive = await control(emu, `/apps/${TRIAL.appId}/keys/revoke`, { env: 'live' });
    expect(noLive.status).toBe(404);
    expect(expectErrorBody(noLive.body)).toMatchObject({ code: 'resource_missing', param: 'env' });
    const noRotate = await control(emu, `/apps/${TRIAL.appId}/keys/rotate`, { env: 'live' });
    expect(noRotate.status).toBe(404);
    const unknownField = await control(emu, `/apps/${DEMO.appId}/keys/revoke`, { env: 'test', kid: 'x' });
    expect(expectErrorBody(unknownField.body)).toMatchObject({ code: 'parameter_unknown', param: 'kid' });
  });
});
