import { describe, expect, it } from 'vitest';
import { routeMatches } from '../../../../src/emulator/domain/faults.js';
import { DEMO, expectErrorBody, testEmulator } from '../../../helpers/emulator.js';

const mint = (emu: ReturnType<typeof testEmulator>) =>
  emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'member_1' } });

describe('API faults', () => {
  it('ERR-1, CHOICE-4: a count fault answers the next N calls with the spec error body, then the route works again', async () => {
    const emu = testEmulator();
    const added = await emu.call('POST', '/_scanctl/faults', {
      json: { method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', count: 2 },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ object: 'fault', remaining: 2, active: true });
    for (let i = 0; i < 2; i++) {
      const r = await mint(emu);
      expect(r.status).toBe(429);
      expect(expectErrorBody(r.body)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(r.headers.get('scanctl-fault')).toBe(added.body.id);
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect((await mint(emu)).status).toBe(201);
    const list = await emu.call('GET', '/_scanctl/faults');
    expect(list.body.data[0]).toMatchObject({ remaining: 0, injected: 2, matched: 2, active: false });
  });

  it('CHOICE-4: the error type follows the chosen status (503 api_error, 401 authentication_error, 400 invalid_request_error)', async () => {
    const emu = testEmulator();
    const cases = [
      [503, 'api_error'],
      [401, 'authentication_error'],
      [403, 'permission_error'],
      [400, 'invalid_request_error'],
    ] as const;
    for (const [status, type] of cases) {
      await emu.call('DELETE', '/_scanctl/faults');
      await emu.call('POST', '/_scanctl/faults', {
        json: { method: '*', path: '/v1/results', status, code: 'service_down', message: 'Down for a test.' },
      });
      const r = await emu.call('DELETE', '/v1/results?host_user_ref=m', { key: DEMO.testSecret });
      expect(r.status).toBe(status);
      expect(expectErrorBody(r.body)).toEqual({ type, code: 'service_down', message: 'Down for a test.' });
    }
  });

  it('a probability fault with a seed fails the same calls every time (seeded, reproducible)', async () => {
    const run = async () => {
      const emu = testEmulator();
      await emu.call('POST', '/_scanctl/faults', {
        json: { method: 'POST', path: '/v1/sessions', status: 500, code: 'internal_error', probability: 0.4, seed: 7 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await mint(emu)).status);
      return statuses;
    };
    const first = await run();
    expect(await run()).toEqual(first);
    const failed = first.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(3);
    expect(failed).toBeLessThan(27);
  });

  it('refuses a code that is not lowercase snake case, a 2xx status, count with probability, and the control plane', async () => {
    const emu = testEmulator();
    const bad = [
      { method: 'POST', path: '/v1/sessions', status: 429, code: 'RateLimited' },
      { method: 'POST', path: '/v1/sessions', status: 200, code: 'ok' },
      { method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', count: 1, probability: 0.5 },
      { method: 'POST', path: 'v1/sessions', status: 429, code: 'rate_limited' },
    ];
    for (const json of bad) {
      const r = await emu.call('POST', '/_scanctl/faults', { json });
      expect(r.status).toBe(400);
      expectErrorBody(r.body);
    }
    // A fault on everything never reaches the control plane, so it can always be cleared.
    await emu.call('POST', '/_scanctl/faults', { json: { method: '*', path: '/*', status: 503, code: 'down' } });
    expect((await mint(emu)).status).toBe(503);
    expect((await emu.call('GET', '/_scanctl/info')).status).toBe(200);
    const cleared = await emu.call('DELETE', '/_scanctl/faults');
    expect(cleared.body).toEqual({ object: 'fault_clear', cleared: 1 });
    expect((await mint(emu)).status).toBe(201);
  });

  it('clears one fault by id; an unknown id is 404 resource_missing', async () => {
    const emu = testEmulator();
    const a = await emu.call('POST', '/_scanctl/faults', { json: { method: 'POST', path: '/v1/sessions', status: 500, code: 'boom' } });
    expect((await emu.call('DELETE', `/_scanctl/faults/${a.body.id}`)).status).toBe(200);
    const missing = await emu.call('DELETE', `/_scanctl/faults/${a.body.id}`);
    expect(missing.status).toBe(404);
    expect(expectErrorBody(missing.body).code).toBe('resource_missing');
  });

  it('matches routes: method or *, :param segments, trailing * prefixes', () => {
    expect(routeMatches({ method: 'POST', path: '/v1/sessions' }, 'POST', '/v1/sessions')).toBe(true);
    expect(routeMatches({ method: 'POST', path: '/v1/sessions' }, 'post', '/v1/sessions/')).toBe(true);
    expect(routeMatches({ method: 'POST', path: '/v1/sessions' }, 'GET', '/v1/sessions')).toBe(false);
    expect(routeMatches({ method: '*', path: '/v1/apps/:id' }, 'PATCH', '/v1/apps/app_demo')).toBe(true);
    expect(routeMatches({ method: '*', path: '/v1/apps/:id' }, 'PATCH', '/v1/apps')).toBe(false);
    expect(routeMatches({ method: '*', path: '/v1/*' }, 'GET', '/v1/results')).toBe(true);
    expect(routeMatches({ method: '*', path: '/v1/*' }, 'GET', '/v2/results')).toBe(false);
    expect(routeMatches({ method: '*', path: '/v1/sess*' }, 'POST', '/v1/sessions')).toBe(true);
    expect(routeMatches({ method: '*', path: '/v1/sess*' }, 'POST', '/v1/results')).toBe(false);
    expect(routeMatches({ method: '*', path: '/*' }, 'POST', '/v1/results')).toBe(true);
  });
});

describe('API faults in the request log', () => {
  it('a faulted call is logged with its status, code and the key display form, never the key', async () => {
    const emu = testEmulator();
    await emu.call('POST', '/_scanctl/faults', {
      json: { method: 'POST', path: '/v1/sessions', status: 503, code: 'service_unavailable', count: 1 },
    });
    await mint(emu);
    const lines = (await emu.call('GET', '/_scanctl/logs')).body.data;
    expect(lines.at(-1)).toMatchObject({
      status: 503,
      error_code: 'service_unavailable',
      key: 'sk_test_...0001',
      env: 'test',
      app_id: 'app_demo',
    });
    expect(JSON.stringify(lines)).not.toContain(DEMO.testSecret);
  });
});
