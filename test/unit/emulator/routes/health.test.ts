import { mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulatorServer, type RunningServer } from '../../../../src/emulator/server.js';
import { buildOpenApiDocument } from '../../../../src/contract/openapi.js';
import { ControlClient } from '../../../../src/client/control.js';
import { notReady, waitUntilReady } from '../../../../src/client/wait-ready.js';
import { DEMO, testEmulator } from '../../../helpers/emulator.js';
import { runCommand } from '../../../helpers/cli-in-process.js';
import { tempDir } from '../../../helpers/temp.js';

const READY_BODY = { object: 'health', ready: true, checks: { database: true, fixtures: true, deliveries: true } };

describe('CHOICE-26: GET /_scanctl/health', () => {
  const servers: RunningServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  const serve = async (options: { rateLimitPerSecond?: number } = {}) => {
    const server = await startEmulatorServer({
      port: 0,
      host: '127.0.0.1',
      dbPath: ':memory:',
      fixturesPath: null,
      reset: false,
      rateLimitPerSecond: options.rateLimitPerSecond ?? 100,
      version: '9.9.9',
      stateFile: null,
    });
    servers.push(server);
    return server;
  };

  it('a started server is ready: database open, fixtures loaded, deliveries dispatched (200)', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/_scanctl/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...READY_BODY, version: '9.9.9' });
  });

  it('an emulator whose dispatcher is not running is up but not ready: 503 with the same body naming the check', async () => {
    const emulator = testEmulator();
    const response = await emulator.call('GET', '/_scanctl/health');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      object: 'health',
      ready: false,
      checks: { database: true, fixtures: false, deliveries: false },
      version: 'test',
    });
    expect(notReady(response.body)).toEqual(['the fixtures are not loaded', 'deliveries are not dispatched']);
  });

  it('while serve stops it is no longer ready: the dispatcher stops before the port closes', async () => {
    const server = await serve();
    await server.emulator.webhooks.stop();
    const response = await fetch(`${server.url}/_scanctl/health`);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { checks: object }).checks).toEqual({ database: true, fixtures: true, deliveries: false });
  });

  it('is never rate limited, faulted or written to the request log', async () => {
    const server = await serve({ rateLimitPerSecond: 1 });
    const lines: unknown[] = [];
    server.emulator.bus.on('request', (line) => lines.push(line));
    const fault = await fetch(`${server.url}/_scanctl/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/*', status: 500, code: 'api_error' }),
    });
    expect(fault.ok).toBe(true);
    lines.length = 0;
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.url}/_scanctl/health`).then((r) => r.status)));
    expect(statuses).toEqual(Array(20).fill(200));
    expect(lines).toEqual([]);
    // The same burst on a keyed route is limited: the limit is on.
    const mints = await Promise.all(
      Array.from({ length: 3 }, () =>
        fetch(`${server.url}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
          body: '{"host_user_ref":"m"}',
        }).then((r) => r.status),
      ),
    );
    expect(mints).toContain(429);
  });

  it('answers a name outside the Host allowlist with 403 host_not_allowed, like every route', async () => {
    const server = await serve();
    const answer = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(`${server.url}/_scanctl/health`, { headers: { host } }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        }).on('error', reject);
      });
    const refused = await answer('evil.example');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('host_not_allowed');
    expect((await answer(`localhost:${server.port}`)).status).toBe(200);
  });

  it('is in the OpenAPI document with its 200 and 503 answers', () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, { get?: { responses: Record<string, unknown> } }> };
    expect(Object.keys(doc.paths['/_scanctl/health']!.get!.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe('scanctl health and scanctl wait', () => {
  it('health exits 0 and says ready; --json prints the health body', async () => {
    const emulator = testEmulator();
    emulator.readiness.fixturesLoaded = true;
    emulator.webhooks.start();
    try {
      const plain = await runCommand(['health'], { emulator });
      expect(plain).toMatchObject({ code: 0, stdout: 'ready: scanctl test at http://127.0.0.1:7226\n' });
      const json = await runCommand(['health', '--json'], { emulator });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ ...READY_BODY, version: 'test' });
    } finally {
      await emulator.webhooks.stop();
    }
  });

  it('health exits 1 when the emulator is up but not ready, naming what is missing', async () => {
    const result = await runCommand(['health'], { emulator: testEmulator() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('not ready: the fixtures are not loaded, deliveries are not dispatched\n');
    expect(result.stderr).toContain('is up but not ready');
  });

  it('health exits 1 (not 4) when nothing answers: a HEALTHCHECK reads only 0 and 1', async () => {
    const result = await runCommand(['health', '--base-url', 'http://127.0.0.1:9']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^scanctl: http:\/\/127\.0\.0\.1:9 is not healthy: could not reach .*ECONNREFUSED/);
  });

  it('health exits 1 when the serve recorded in the folder has exited (a stale serve.json)', async () => {
    const dir = tempDir('scanctl-health-');
    mkdirSync(join(dir, '.scanctl'));
    writeFileSync(join(dir, '.scanctl', 'serve.json'), JSON.stringify({ pid: 2 ** 22 + 1, base_url: 'http://127.0.0.1:9', db: 'x' }));
    const result = await runCommand(['health'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^scanctl: the emulator is not healthy: the emulator is not running/);
  });

  it('wait exits 5 with a clear message once its timeout passes', async () => {
    const result = await runCommand(['wait', '--base-url', 'http://127.0.0.1:9', '--timeout', '50ms']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      'timed out after 50ms waiting for the emulator at http://127.0.0.1:9 to be ready (last: could not reach',
    );
  });

  it('waitUntilReady keeps looking through refused connections and 503s until ready, on its timer', async () => {
    const answers = ['refused', 503, 503, 200] as const;
    let calls = 0;
    const body = (ready: boolean) =>
      JSON.stringify({ object: 'health', ready, checks: { database: true, fixtures: true, deliveries: ready }, version: 'x' });
    const fetchImpl = async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if (answer === 'refused') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return new Response(body(answer === 200), { status: answer, headers: { 'content-type': 'application/json' } });
    };
    let now = 0;
    const timer = { now: () => now, sleep: async (ms: number) => void (now += ms) };
    const outcome = await waitUntilReady(new ControlClient('http://x', fetchImpl), { timeoutMs: 10_000, timer });
    expect(outcome).toMatchObject({ ok: true, health: { ready: true } });
    expect({ calls, now }).toEqual({ calls: 4, now: 300 });

    calls = 1;
    now = 0;
    const stuck = await waitUntilReady(new ControlClient('http://x', async () => new Response(body(false), { status: 503 })), {
      timeoutMs: 250,
      timer,
    });
    expect(stuck).toEqual({ ok: false, last: 'not ready: deliveries are not dispatched' });
    expect(now).toBe(250);
  });
});
