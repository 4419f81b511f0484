import { request } from 'node:http';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

/**
 * docs/security.md end to end, through the built CLI and a real socket: a rebinding Host on each
 * family of routes, --allowed-host, cross-origin form and text/plain posts, and the file modes of
 * the database folder, its key file and a secrets export.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request with a chosen Host header (fetch will not send one). */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = (value: unknown) => JSON.stringify(value);

let serve: ServeProcess;
let host: string;
beforeAll(async () => {
  const dir = tempDir('scanctl-e2e-security-');
  serve = await startServe([], { dir, db: join(dir, '.scanctl', 'scanctl.db') });
  host = new URL(serve.baseUrl).host;
});
afterAll(() => serve?.stop());

/** The state a rebinding page would want to change, read the ordinary way. */
async function snapshot() {
  const clock = await raw(serve.baseUrl, 'GET', '/_scanctl/clock', { host });
  const app = await raw(serve.baseUrl, 'GET', `/_scanctl/apps/${DEMO.appId}`, { host });
  const accounts = await raw(serve.baseUrl, 'GET', '/_scanctl/accounts', { host });
  const logs = await raw(serve.baseUrl, 'GET', '/_scanctl/logs?path=/v1/sessions', { host });
  return {
    clockOffset: clock.body.offset_ms,
    app: app.body,
    accounts: accounts.body,
    mints: logs.body.data.filter((l: any) => l.status === 201).length,
  };
}

describe('a local server web pages cannot reach (CHOICE-11, CHOICE-12, CHOICE-13)', () => {
  it('CHOICE-11: a rebinding Host gets 403 host_not_allowed on every family of routes, and nothing changes', async () => {
    const before = await snapshot();
    const rebound = { host: `rebind.example:${new URL(serve.baseUrl).port}` };
    const withJson = { ...rebound, 'content-type': 'application/json' };
    const cases: Array<[string, string, Record<string, string>, string?]> = [
      ['POST', '/v1/sessions', { ...withJson, authorization: `Bearer ${DEMO.testSecret}` }, json({ host_user_ref: 'rebound' })],
      ['DELETE', '/v1/results?host_user_ref=m', { ...rebound, authorization: `Bearer ${DEMO.testSecret}` }],
      ['POST', '/v1/device/challenge', { ...rebound, authorization: 'Bearer vst_x' }],
      ['PATCH', `/v1/apps/${DEMO.appId}`, withJson, json({ webhook_url: 'http://evil.example/h' })],
      ['GET', '/_scanctl/info', rebound],
      ['GET', '/_scanctl/state?include_secrets=true', rebound],
      ['POST', '/_scanctl/clock/advance', withJson, json({ duration: '30d' })],
      ['POST', `/_scanctl/apps/${DEMO.appId}/keys/rotate`, withJson, json({ env: 'test' })],
      ['POST', `/_scanctl/accounts/${DEMO.accountId}/suspend`, rebound],
      ['POST', '/_scanctl/state/reset', rebound],
      ['GET', '/', rebound],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await raw(serve.baseUrl, method, path, headers, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error, `${method} ${path}`).toMatchObject({ type: 'permission_error', code: 'host_not_allowed' });
      expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('CHOICE-12: a cross-origin form post and a text/plain POST to the control plane change nothing', async () => {
    const before = await snapshot();
    const page = { host, origin: 'http://evil.example' };
    const form = await raw(
      serve.baseUrl,
      'POST',
      `/_scanctl/accounts/${DEMO.accountId}/suspend`,
      { ...page, 'content-type': 'application/x-www-form-urlencoded' },
      'x=1',
    );
    expect(form.body.error.code).toBe('origin_not_allowed');
    const plain = await raw(
      serve.baseUrl,
      'POST',
      '/_scanctl/clock/advance',
      { ...page, 'content-type': 'text/plain' },
      json({ duration: '30d' }),
    );
    expect(plain.body.error.code).toBe('origin_not_allowed');
    // Without an Origin (a browser that sends none, a misbehaving tool): the body's type is refused.
    const plainNoOrigin = await raw(
      serve.baseUrl,
      'POST',
      '/_scanctl/clock/advance',
      { host, 'content-type': 'text/plain' },
      json({ duration: '30d' }),
    );
    expect(plainNoOrigin.status).toBe(415);
    const formNoOrigin = await raw(
      serve.baseUrl,
      'POST',
      `/_scanctl/accounts/${DEMO.accountId}/suspend`,
      { host, 'content-type': 'application/x-www-form-urlencoded' },
      'x=1',
    );
    expect(formNoOrigin.status).toBe(415);
    const crossSite = await raw(serve.baseUrl, 'POST', `/v1/apps/${DEMO.appId}`, { host, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.body.error.code).toBe('origin_not_allowed');
    expect(await snapshot()).toEqual(before);
    // The local CLI still drives it.
    const advanced = await runCli(['clock', 'advance', '1m', '--base-url', serve.baseUrl]);
    expect(advanced.code).toBe(0);
    expect((await snapshot()).clockOffset).toBe(before.clockOffset + 60_000);
  });

  it('CHOICE-13: the .scanctl folder is 0700, its key file 0600, and a secrets export 0600 even over a wider existing file', async () => {
    const folder = join(serve.dir, '.scanctl');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, 'scanctl.db.key')).mode & 0o777).toBe(0o600);
    const out = join(serve.dir, 'state.json');
    writeFileSync(out, '{}');
    chmodSync(out, 0o644);
    const exported = await runCli(['state', 'export', out, '--include-secrets', '--base-url', serve.baseUrl]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });
});

describe('serve --allowed-host (CHOICE-11)', () => {
  it('CHOICE-11: --allowed-host and SCANCTL_ALLOWED_HOSTS admit exactly the named hosts', async () => {
    const other = await startServe(['--allowed-host', 'scanctl.ci'], { env: { SCANCTL_ALLOWED_HOSTS: 'emulator.ci:8080' } });
    try {
      const port = new URL(other.baseUrl).port;
      expect((await raw(other.baseUrl, 'GET', '/_scanctl/info', { host: `scanctl.ci:${port}` })).status).toBe(200);
      expect((await raw(other.baseUrl, 'GET', '/_scanctl/info', { host: 'emulator.ci:8080' })).status).toBe(200);
      for (const name of [`emulator.ci:${port}`, `other.ci:${port}`, `scanctl.ci.evil:${port}`]) {
        const res = await raw(other.baseUrl, 'GET', '/_scanctl/info', { host: name });
        expect(res.status, name).toBe(403);
        expect(res.body.error.code).toBe('host_not_allowed');
      }
    } finally {
      await other.stop();
    }
  });

  it('CHOICE-11: --host beyond loopback without --allowed-host is refused with one line on stderr', async () => {
    const res = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--db', ':memory:']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/--allowed-host/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    const bad = await runCli(['serve', '--allowed-host', 'http://x/', '--port', '0', '--db', ':memory:']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--allowed-host/);
  });
});
