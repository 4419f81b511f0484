import { describe, expect, it } from 'vitest';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

const del = (emu: TestEmulator, query: string, key: string | undefined = DEMO.testSecret, headers?: Record<string, string>) =>
  emu.call('DELETE', `/v1/results${query}`, { key, headers });

describe('DELETE /v1/results', () => {
  it('AUTH-1: sk_test_ and sk_live_ keys both delete', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testSecret, DEMO.liveSecret]) {
      const res = await del(emu, '?host_user_ref=member_1', key);
      expect(res.status).toBe(200);
    }
  });

  it('DEL-3: nothing to remove still answers 200 {host_user_ref, deleted: 0}', async () => {
    const emu = testEmulator();
    const res = await del(emu, '?host_user_ref=member%20%C3%A9%2F1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ host_user_ref: 'member é/1', deleted: 0 });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('AUTH-4: a publishable, revoked, rotated-out, suspended, unknown, malformed or missing key gets 401 only', async () => {
    const emu = testEmulator();
    const control = (path: string, json?: unknown) => emu.call('POST', `/_scanctl${path}`, json === undefined ? {} : { json });
    // live: suspended; test: rotated past its grace; a new test key is then revoked.
    await control(`/apps/${DEMO.appId}/keys/suspend`, { env: 'live' });
    const rotated = await control(`/apps/${DEMO.appId}/keys/rotate`, { env: 'test' });
    const replacement: string = rotated.body.data[0].secret;
    await emu.advance(24 * 3_600_000);
    await control(`/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    const keys: Array<string | undefined> = [
      DEMO.testPublishable,
      DEMO.livePublishable,
      DEMO.testSecret, // rotated past grace
      replacement, // revoked
      DEMO.liveSecret, // suspended
      'sk_test_unknownUnknownUnknown0000001',
      'sk_test_bad',
      'garbage',
      undefined,
    ];
    for (const key of keys) {
      const res = await del(emu, '?host_user_ref=member_1', key);
      expect(res.status, String(key)).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    // An account suspension also makes the key unusable here: still 401.
    const trialKey = 'sk_test_trialSecretKey0000000000001';
    expect((await del(emu, '?host_user_ref=m', trialKey)).status).toBe(200);
    await control('/accounts/acct_trial/suspend');
    const suspended = await del(emu, '?host_user_ref=m', trialKey);
    expect(suspended.status).toBe(401);
    expect(expectErrorBody(suspended.body).code).toBe('invalid_api_key');
    // Authentication comes first: a bad key with a bad query is still 401.
    expect((await del(emu, '', 'garbage')).status).toBe(401);
  });

  it('DEL-1: host_user_ref is required: missing, empty, repeated or too long gets 400 naming the param', async () => {
    const emu = testEmulator();
    const cases: Array<[string, string, string]> = [
      ['', 'parameter_missing', 'host_user_ref'],
      ['?', 'parameter_missing', 'host_user_ref'],
      ['?host_user_ref=', 'parameter_invalid', 'host_user_ref'],
      ['?host_user_ref', 'parameter_invalid', 'host_user_ref'],
      ['?host_user_ref=a&host_user_ref=b', 'parameter_invalid', 'host_user_ref'],
      ['?host_user_ref=a&host_user_ref=a', 'parameter_invalid', 'host_user_ref'],
      [`?host_user_ref=${'x'.repeat(256)}`, 'parameter_invalid', 'host_user_ref'],
      ['?host_user_ref=a&extra=1', 'parameter_unknown', 'extra'],
      ['?user=a', 'parameter_missing', 'host_user_ref'],
    ];
    for (const [query, code, param] of cases) {
      const res = await del(emu, query);
      expect(res.status, query).toBe(400);
      expect(expectErrorBody(res.body), query).toMatchObject({ type: 'invalid_request_error', code, param });
    }
    expect((await del(emu, `?host_user_ref=${'x'.repeat(255)}`)).status).toBe(200);
  });

  it('DEL-1: malformed percent-encoding in the query never breaks the route', async () => {
    const emu = testEmulator();
    for (const query of ['?host_user_ref=%ZZ', '?host_user_ref=%E0%A4%A', '?host_user_ref=%', '?%ZZ=1&host_user_ref=a']) {
      const res = await del(emu, query);
      expect(res.status, query).toBeLessThan(500);
      if (res.status !== 200) expect(expectErrorBody(res.body).type).toBe('invalid_request_error');
    }
  });

  it('CHOICE-53: a body on DELETE is refused (400 body_not_allowed), never read as the member: the query decides', async () => {
    const emu = testEmulator();
    const res = await emu.call('DELETE', '/v1/results?host_user_ref=q', {
      key: DEMO.testSecret,
      json: { host_user_ref: 'body' },
    });
    expect(res.status).toBe(400);
    expect(expectErrorBody(res.body).code).toBe('body_not_allowed');
    const plain = await emu.call('DELETE', '/v1/results?host_user_ref=q', { key: DEMO.testSecret });
    expect(plain.body).toEqual({ host_user_ref: 'q', deleted: 0 });
  });
});
