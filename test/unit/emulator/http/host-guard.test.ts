import { describe, expect, it } from 'vitest';
import { hostAllowed } from '../../../../src/emulator/http/host-guard.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { mint } from '../../../helpers/device.js';

/** docs/security.md: the emulator trusts the loopback user; rebound names and other origins are refused. */

const offset = (emu: TestEmulator) => emu.clock.now();

describe('CHOICE-11: the Host check (DNS rebinding)', () => {
  it('CHOICE-11: loopback names with the emulator port pass; a rebound name, another port or no port do not', () => {
    const policy = { port: 7226, allowedHosts: [] };
    for (const host of ['localhost:7226', '127.0.0.1:7226', '[::1]:7226', 'LOCALHOST:7226'])
      expect(hostAllowed(host, policy), host).toBe(true);
    for (const host of [
      'rebind.example:7226',
      'localhost:8080',
      'localhost',
      '127.0.0.2:7226',
      'localhost.:7226',
      '127.0.0.1.nip.io:7226',
      '',
      'a b',
      'user@localhost:7226',
    ]) {
      expect(hostAllowed(host, policy), host).toBe(false);
    }
    // In-process (app.request) there is no port to compare: a loopback name is enough.
    expect(hostAllowed('localhost', { port: null, allowedHosts: [] })).toBe(true);
    expect(hostAllowed('127.0.0.1:4321', { port: null, allowedHosts: [] })).toBe(true);
    expect(hostAllowed('rebind.example', { port: null, allowedHosts: [] })).toBe(false);
  });

  it('CHOICE-11: --allowed-host NAME admits that name on any port, NAME:PORT on that port only, nothing else', () => {
    const policy = { port: 7226, allowedHosts: ['scanctl', 'ci.internal:8080'] };
    expect(hostAllowed('scanctl:7226', policy)).toBe(true);
    expect(hostAllowed('SCANCTL:9000', policy)).toBe(true);
    expect(hostAllowed('ci.internal:8080', policy)).toBe(true);
    expect(hostAllowed('ci.internal:7226', policy)).toBe(false);
    expect(hostAllowed('scanctl.evil:7226', policy)).toBe(false);
    expect(hostAllowed('evil-scanctl:7226', policy)).toBe(false);
  });

  it('CHOICE-11: a rebound Host is 403 host_not_allowed on every family of routes, saying how to allow one, and changes nothing', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const before = offset(emu);
    const headers = { host: 'rebind.example:7226' };
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } }],
      ['DELETE', '/v1/results?host_user_ref=m', { key: DEMO.testSecret }],
      ['POST', '/v1/device/challenge', { key: token }],
      ['PATCH', `/v1/apps/${DEMO.appId}`, { json: { webhook_url: 'http://evil.example/h' } }],
      ['POST', '/_scanctl/clock/advance', { json: { duration: '1h' } }],
      ['GET', '/_scanctl/state', {}],
      ['GET', '/_scanctl/apps/app_demo/webhook-secret', {}],
      ['GET', '/', {}],
      ['GET', '/no/such/route', {}],
    ];
    for (const [method, path, options] of cases) {
      const res = await emu.call(method, path, { ...options, headers });
      expect(res.status, `${method} ${path}`).toBe(403);
      const error = expectErrorBody(res.body);
      expect(error).toMatchObject({ type: 'permission_error', code: 'host_not_allowed' });
      expect(error.message).toMatch(/--allowed-host/);
      expect([...res.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
    }
    expect(offset(emu)).toBe(before);
    expect((emu.store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBe(1);
    expect(emu.store.apps.get(DEMO.appId)!.webhook_url).toBeNull();
  });
});

describe('CHOICE-12: cross-site requests', () => {
  it('CHOICE-12: control plane and portal refuse a foreign Origin, Origin null and Sec-Fetch-Site cross-site; the own origin passes', async () => {
    const emu = testEmulator();
    const before = offset(emu);
    const foreign: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:3000.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await emu.call('POST', '/_scanctl/clock/advance', { json: { duration: '1h' }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(expectErrorBody(res.body).code).toBe('origin_not_allowed');
      const portal = await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { json: { results_delivery_enabled: true }, headers });
      expect(expectErrorBody(portal.body).code).toBe('origin_not_allowed');
    }
    expect(offset(emu)).toBe(before);
    const own: Array<Record<string, string>> = [
      { origin: 'http://localhost' },
      { origin: 'http://127.0.0.1:7226' },
      { 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of own) {
      expect(
        (await emu.call('POST', '/_scanctl/clock/advance', { json: { duration: '1m' }, headers })).status,
        JSON.stringify(headers),
      ).toBe(200);
    }
    // The backend routes are called by servers with a secret key: no Origin rule (and still no CORS header to read the answer).
    const mint = await emu.call('POST', '/v1/sessions', {
      key: DEMO.testSecret,
      json: { host_user_ref: 'm' },
      headers: { origin: 'http://evil.example' },
    });
    expect(mint.status).toBe(201);
    expect(mint.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('CHOICE-12: no answer carries CORS headers, preflights included', async () => {
    const emu = testEmulator();
    for (const path of ['/_scanctl/info', '/v1/sessions', '/_scanctl/state']) {
      const res = await emu.app.request(path, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost', 'access-control-request-method': 'POST' },
      });
      expect(
        [...res.headers.keys()].filter((k) => k.startsWith('access-control-')),
        path,
      ).toEqual([]);
    }
  });

  it('CHOICE-12: a form post or a text/plain body to a control route is refused (415) and changes nothing', async () => {
    const emu = testEmulator();
    const before = offset(emu);
    const plain = await emu.call('POST', '/_scanctl/clock/advance', {
      body: '{"duration":"1h"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(expectErrorBody(plain.body).code).toBe('unsupported_media_type');
    const form = await emu.call('POST', `/_scanctl/accounts/${DEMO.accountId}/suspend`, {
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(expectErrorBody(form.body).code).toBe('unsupported_media_type');
    expect(offset(emu)).toBe(before);
    expect(emu.store.accounts.get(DEMO.accountId)!.suspended).toBe(0);
    // The same call as a local tool sends it (no body) does suspend: the refusal above is the body's doing.
    expect((await emu.call('POST', `/_scanctl/accounts/${DEMO.accountId}/suspend`)).status).toBe(200);
    expect(emu.store.accounts.get(DEMO.accountId)!.suspended).toBe(1);
  });

  it('CHOICE-53: a JSON body sent to a route that declares none is 400 body_not_allowed and changes nothing; an empty one is no body', async () => {
    const emu = testEmulator();
    const suspend = `/_scanctl/accounts/${DEMO.accountId}/suspend`;
    for (const body of ['{}', '{"reason":"x"}', 'null']) {
      const refused = await emu.call('POST', suspend, { body, headers: { 'content-type': 'application/json' } });
      expect(refused.status, body).toBe(400);
      expect(expectErrorBody(refused.body)).toMatchObject({ type: 'invalid_request_error', code: 'body_not_allowed' });
    }
    const deleteWithBody = await emu.call('DELETE', '/v1/results?host_user_ref=m', {
      key: DEMO.testSecret,
      body: '{"host_user_ref":"m"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectErrorBody(deleteWithBody.body).code).toBe('body_not_allowed');
    expect(emu.store.accounts.get(DEMO.accountId)!.suspended).toBe(0);
    expect((await emu.call('POST', suspend, { body: '', headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect(emu.store.accounts.get(DEMO.accountId)!.suspended).toBe(1);
  });
});
