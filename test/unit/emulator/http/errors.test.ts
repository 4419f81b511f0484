import fc from 'fast-check';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, ERROR_TYPES, errorTypeForStatus, type ErrorCode } from '../../../../src/contract/errors.js';
import { CHOICES } from '../../../../src/contract/choices.js';
import { CONTROL_PREFIX } from '../../../../src/contract/control.js';
import type { AppEnv } from '../../../../src/emulator/context.js';
import { installFallbacks } from '../../../../src/emulator/http/fallbacks.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

async function raw(
  emu: TestEmulator,
  method: string,
  path: string,
  init: { body?: RequestInit['body']; headers?: Record<string, string> } = {},
) {
  const response = await emu.app.request(path, { method, body: init.body, headers: init.headers, duplex: 'half' });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

const auth = { authorization: `Bearer ${DEMO.testSecret}` };
const jsonHeaders = { ...auth, 'content-type': 'application/json' };

function expectSpecError(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const error = expectErrorBody(res.body);
  expect(error.code).toBe(code);
  expect(error.type).toBe(errorTypeForStatus(status));
  expect(ERROR_TYPES).toContain(error.type);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

describe('HTTP errors', () => {
  it('ERR-1: an unknown route is 404 route_not_found in the spec body', async () => {
    const emu = testEmulator();
    for (const path of ['/', '/nope', '/v1', '/v1/session', '/v1/sessions/extra', '/v2/sessions', '/V1/sessions', '/_scanctl/nope']) {
      expectSpecError(await raw(emu, 'POST', path, { body: '{}', headers: jsonHeaders }), 404, 'route_not_found');
    }
    expectSpecError(await raw(emu, 'GET', `/${'x'.repeat(5000)}`), 404, 'route_not_found');
  });

  it('ERR-1: a known path with the wrong method is 405 method_not_allowed with an Allow header', async () => {
    const emu = testEmulator();
    const cases: Array<[string, string, string]> = [
      ['GET', '/v1/sessions', 'POST'],
      ['PUT', '/v1/sessions', 'POST'],
      ['DELETE', '/v1/sessions', 'POST'],
      ['GET', '/v1/results', 'DELETE'],
      ['POST', '/v1/results', 'DELETE'],
      ['GET', `/v1/apps/${DEMO.appId}`, 'PATCH'],
      ['PUT', `/v1/apps/${DEMO.appId}`, 'PATCH'],
      ['OPTIONS', '/v1/sessions', 'POST'],
      ['DELETE', `${CONTROL_PREFIX}/clock`, 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const error = expectSpecError(await raw(emu, method, path), 405, 'method_not_allowed');
      expect(error.message).toContain(allow);
      const res = await raw(emu, method, path);
      expect(res.headers.get('allow')).toContain(allow);
    }
  });

  it('CHOICE-3: a wrong or missing content type is 415 unsupported_media_type', async () => {
    const emu = testEmulator();
    const body = JSON.stringify({ host_user_ref: 'm' });
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'application/jsonx',
      'multipart/form-data',
    ]) {
      const headers: Record<string, string> = { ...auth };
      if (type) headers['content-type'] = type;
      expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body, headers }), 415, 'unsupported_media_type');
    }
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      expect((await raw(emu, 'POST', '/v1/sessions', { body, headers: { ...auth, 'content-type': type } })).status).toBe(201);
    }
  });

  it('CHOICE-3: malformed JSON, an empty body, bad UTF-8 and absurd nesting are 400 invalid_json', async () => {
    const emu = testEmulator();
    const bodies: RequestInit['body'][] = [
      '{"host_user_ref": "m"',
      '{host_user_ref: "m"}',
      '',
      ' ',
      "{'host_user_ref':'m'}",
      '{"host_user_ref":"m"} trailing',
      new Uint8Array([0x7b, 0x22, 0x68, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      new Uint8Array([0xc3, 0x28]),
      '['.repeat(100_000),
      '{"a":'.repeat(100_000),
    ];
    for (const body of bodies) {
      expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body, headers: jsonHeaders }), 400, 'invalid_json');
    }
  });

  it('CHOICE-3: JSON that is not an object, or deeply nested valid JSON, is 400 parameter_invalid', async () => {
    const emu = testEmulator();
    for (const body of ['[]', '[{"host_user_ref":"m"}]', 'null', '"m"', '42', 'true']) {
      const error = expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body, headers: jsonHeaders }), 400, 'parameter_invalid');
      expect(error.param).toBeUndefined();
    }
    const deep = `{"host_user_ref":"m","scopes":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body: deep, headers: jsonHeaders }), 400, 'parameter_invalid');
    expect(error.param).toBe('scopes[0]');
    const proto = '{"host_user_ref":"m","__proto__":{"scopes":["x"]}}';
    expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body: proto, headers: jsonHeaders }), 400, 'parameter_unknown');
    const dup = '{"host_user_ref":"a","host_user_ref":"b"}';
    expect((await raw(emu, 'POST', '/v1/sessions', { body: dup, headers: jsonHeaders })).status).toBe(201);
  });

  it('CHOICE-3: a body over config.maxBodyBytes is 413 body_too_large, with or without Content-Length', async () => {
    const emu = testEmulator();
    expect(emu.config.maxBodyBytes).toBe(CHOICES.maxBodyBytes);
    const padding = 'x'.repeat(CHOICES.maxBodyBytes);
    const big = JSON.stringify({ host_user_ref: 'm', pad: padding });
    expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body: big, headers: jsonHeaders }), 413, 'body_too_large');
    expectSpecError(
      await raw(emu, 'PATCH', `/v1/apps/${DEMO.appId}`, {
        body: big,
        headers: { 'content-type': 'application/json', cookie: await portalCookie(emu) },
      }),
      413,
      'body_too_large',
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(CHOICES.maxBodyBytes / 4)));
        controller.close();
      },
    });
    expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body: stream, headers: jsonHeaders }), 413, 'body_too_large');
    // Exactly at the limit is read (and then refused for its content, not its size).
    const atLimit = JSON.stringify({ host_user_ref: 'm', p: '' });
    const exact = atLimit.replace('"p":""', `"p":"${'x'.repeat(CHOICES.maxBodyBytes - atLimit.length)}"`);
    expect(Buffer.byteLength(exact)).toBe(CHOICES.maxBodyBytes);
    expectSpecError(await raw(emu, 'POST', '/v1/sessions', { body: exact, headers: jsonHeaders }), 400, 'parameter_unknown');
  });

  it('ERR-2: every code the core answers has its exact status and type', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 0 });
    const cookie = await portalCookie(emu);
    const control = (path: string, json: unknown) => emu.call('POST', `${CONTROL_PREFIX}${path}`, { json });
    const seen = new Map<string, number>();
    const check = (res: { status: number; headers: Headers; body: any }, code: ErrorCode, type: string) => {
      const error = expectSpecError(res, ERROR_CODES[code], code);
      expect(error.type).toBe(type);
      seen.set(code, res.status);
    };
    const mint = (key: string | undefined, json: unknown = { host_user_ref: 'm' }, headers?: Record<string, string>) =>
      emu.call('POST', '/v1/sessions', { key, json, headers });

    check(await mint(DEMO.testPublishable), 'publishable_key_used', 'authentication_error');
    check(await mint('sk_test_nope'), 'invalid_api_key', 'authentication_error');
    check(await mint(DEMO.testSecret, {}), 'parameter_missing', 'invalid_request_error');
    check(await mint(DEMO.testSecret, { host_user_ref: 1 }), 'parameter_invalid', 'invalid_request_error');
    check(await mint(DEMO.testSecret, { host_user_ref: 'm', x: 1 }), 'parameter_unknown', 'invalid_request_error');
    check(await raw(emu, 'POST', '/v1/sessions', { body: '{', headers: jsonHeaders }), 'invalid_json', 'invalid_request_error');
    check(await mint(DEMO.testSecret, undefined, { 'idempotency-key': 'k' }), 'idempotency_key_not_accepted', 'invalid_request_error');
    check(
      await raw(emu, 'POST', '/v1/sessions', { body: 'x'.repeat(CHOICES.maxBodyBytes + 1), headers: jsonHeaders }),
      'body_too_large',
      'invalid_request_error',
    );
    check(await raw(emu, 'POST', '/v1/sessions', { body: '{}', headers: auth }), 'unsupported_media_type', 'invalid_request_error');
    check(await raw(emu, 'GET', '/v2/sessions'), 'route_not_found', 'invalid_request_error');
    check(await raw(emu, 'GET', '/v1/sessions'), 'method_not_allowed', 'invalid_request_error');
    check(await emu.call('GET', `${CONTROL_PREFIX}/apps/app_nope`), 'resource_missing', 'invalid_request_error');
    check(await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { json: {} }), 'portal_login_required', 'authentication_error');
    check(
      await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { json: {}, key: DEMO.testSecret, headers: { cookie } }),
      'bearer_not_accepted',
      'authentication_error',
    );
    check(await control(`/apps/${DEMO.appId}/keys`, { env: 'test' }), 'key_exists', 'invalid_request_error');
    check(await control('/apps/app_trial/keys', { env: 'live' }), 'live_keys_not_allowed', 'permission_error');
    check(await control('/clock/set', { time: '2000-01-01T00:00:00Z' }), 'clock_backwards', 'invalid_request_error');

    await control(`/apps/${DEMO.appId}/keys/suspend`, { env: 'live' });
    check(await mint(DEMO.liveSecret), 'key_suspended', 'permission_error');
    check(await control(`/apps/${DEMO.appId}/keys/suspend`, { env: 'live' }), 'key_state_conflict', 'invalid_request_error');
    await control(`/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    check(await mint(DEMO.testSecret), 'key_revoked', 'permission_error');
    await control('/accounts/acct_trial/suspend', {});
    check(await mint('sk_test_trialSecretKey0000000000001'), 'account_suspended', 'permission_error');
    await control('/accounts/acct_trial/reinstate', {});
    await control('/apps/app_trial/quota', { daily_session_quota: 0 });
    check(await mint('sk_test_trialSecretKey0000000000001'), 'quota_exceeded', 'rate_limit_error');
    emu.config.rateLimitPerSecond = 1;
    await control('/apps/app_trial/quota', { daily_session_quota: 10 });
    await mint('sk_test_trialSecretKey0000000000001');
    const limited = await mint('sk_test_trialSecretKey0000000000001');
    check(limited, 'rate_limited', 'rate_limit_error');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // The spec's Errors table statuses (ERR-2), as the emulator declares them.
    expect(ERROR_CODES).toMatchObject({
      publishable_key_used: 401,
      key_revoked: 403,
      key_suspended: 403,
      account_suspended: 403,
      insufficient_scope: 403,
      attestation_invalid: 403,
      quota_exceeded: 429,
    });
    expect(seen.size).toBe(23);
  });

  it('CHOICE-3: absurd clock moves are 400 parameter_invalid, never a 500', async () => {
    const emu = testEmulator();
    const post = (path: string, json: unknown) => emu.call('POST', `${CONTROL_PREFIX}${path}`, { json });
    for (const duration of [`${'9'.repeat(400)}d`, '99999999999d', '101y', '-1h', '1e9s', '']) {
      const res = await post('/clock/advance', { duration });
      expect(res.status, duration).toBe(400);
      expect(expectErrorBody(res.body)).toMatchObject({ code: 'parameter_invalid', param: 'duration' });
    }
    for (const time of ['9999-12-31T23:59:59.999-01:00', '2026-02-30T00:00:00Z', 'tomorrow', '2026-11-22']) {
      const res = await post('/clock/set', { time });
      expect(res.status, time).toBe(400);
      expect(expectErrorBody(res.body).param).toBe('time');
    }
    const ok = await post('/clock/set', { time: '2026-11-23T00:00:00+01:00' });
    expect(ok.status).toBe(200);
    expect(ok.body.now).toBe('2026-11-22T23:00:00.000Z');
    // Many centuries in a row stop at the year 9999.
    let last = 200;
    for (let i = 0; i < 90 && last === 200; i++) last = (await post('/clock/advance', { duration: '36500d' })).status;
    expect(last).toBe(400);
    expect((await emu.call('GET', `${CONTROL_PREFIX}/clock`)).status).toBe(200);
  });

  it('CHOICE-4: the error type follows the status', () => {
    expect(errorTypeForStatus(400)).toBe('invalid_request_error');
    expect(errorTypeForStatus(404)).toBe('invalid_request_error');
    expect(errorTypeForStatus(409)).toBe('invalid_request_error');
    expect(errorTypeForStatus(413)).toBe('invalid_request_error');
    expect(errorTypeForStatus(401)).toBe('authentication_error');
    expect(errorTypeForStatus(403)).toBe('permission_error');
    expect(errorTypeForStatus(429)).toBe('rate_limit_error');
    expect(errorTypeForStatus(500)).toBe('api_error');
    expect(errorTypeForStatus(503)).toBe('api_error');
  });

  it('ERR-1: an unexpected exception is still the spec body (500 api_error internal_error), never a stack trace', async () => {
    const logged: unknown[] = [];
    const printed = vi.spyOn(console, 'error');
    const app = new Hono<AppEnv>().get('/boom', () => {
      throw new Error('secret internals sk_test_xyz');
    });
    installFallbacks(app, { warn: () => undefined, info: () => undefined, error: (_message, error) => logged.push(error) });
    const res = await app.request('/boom');
    expect(res.status).toBe(500);
    const error = expectErrorBody(await res.json());
    expect(error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(error.message).not.toContain('sk_test_xyz');
    // The details go to the host's logger, never to the process's stderr by themselves.
    expect(logged).toEqual([expect.objectContaining({ message: 'secret internals sk_test_xyz' })]);
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
  });

  it('ERR-1: never a 5xx and always the spec body, whatever the method, path, headers and body (property)', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 0 });
    const cookie = await portalCookie(emu);
    const paths = [
      '/v1/sessions',
      '/v1/results',
      `/v1/apps/${DEMO.appId}`,
      '/v1/apps/app_trial',
      '/v1/x',
      `${CONTROL_PREFIX}/clock/advance`,
      `${CONTROL_PREFIX}/apps/${DEMO.appId}/keys/suspend`,
      `${CONTROL_PREFIX}/portal/login`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
        fc.constantFrom(...paths),
        fc.constantFrom('', '?host_user_ref=m', '?host_user_ref=%ZZ', '?a=1&a=2', '?host_user_ref='),
        fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/json; charset=utf-8'),
        fc.constantFrom(undefined, `Bearer ${DEMO.testSecret}`, `Bearer ${DEMO.testPublishable}`, 'Bearer sk_test_zzz', 'Basic x'),
        fc.boolean(),
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.constant('{"host_user_ref":"m"}'),
          fc.constant('{"duration":"1s"}'),
          fc.constant('{"env":"test"}'),
        ),
        async (method, path, query, type, authorization, withCookie, body) => {
          const headers: Record<string, string> = {};
          if (type) headers['content-type'] = type;
          if (authorization) headers.authorization = authorization;
          if (withCookie) headers.cookie = cookie;
          const res = await raw(emu, method, `${path}${query}`, { headers, body: method === 'GET' ? undefined : body });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type')).toMatch(/^application\/json/);
            expectErrorBody(res.body);
            expect(res.body.error.type).toBe(errorTypeForStatus(res.status));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('VER-1: every route of the backend interface carries /v1; /v2 is unknown; the interface is 1.0.0', async () => {
    const emu = testEmulator();
    const routes = emu.app.routes.filter((r) => r.method !== 'ALL' && !r.path.startsWith(CONTROL_PREFIX));
    expect(routes.length).toBeGreaterThanOrEqual(3);
    for (const route of routes) expect(route.path, `${route.method} ${route.path}`).toMatch(/^\/v1\//);
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /v1/sessions', 'DELETE /v1/results', 'PATCH /v1/apps/:app_id']));
    expectSpecError(
      await raw(emu, 'POST', '/v2/sessions', { body: '{"host_user_ref":"m"}', headers: jsonHeaders }),
      404,
      'route_not_found',
    );
    expectSpecError(await raw(emu, 'POST', '/sessions', { body: '{"host_user_ref":"m"}', headers: jsonHeaders }), 404, 'route_not_found');
    const info = await raw(emu, 'GET', `${CONTROL_PREFIX}/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ object: 'emulator', interface_version: '1.0.0', default_app_id: DEMO.appId });
  });
});
