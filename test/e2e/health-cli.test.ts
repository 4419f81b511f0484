import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/contract/environment.js';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { freePort } from '../helpers/net.js';

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function statusWithHost(baseUrl: string, path: string, host: string): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });
}

describe('health, readiness and serve in a container (CHOICE-26, CHOICE-27)', () => {
  it('CHOICE-26: serve --json prints exactly one line on stdout, the ready event with the environment contract', async () => {
    const serve = await startServe([], { db: ':memory:' });
    let stdout = '';
    serve.child.stdout!.on('data', (chunk) => (stdout += chunk));
    const health = await runCli(['health', '--base-url', serve.baseUrl]);
    expect(health).toMatchObject({ code: 0, stdout: `ready: scanctl ${String(serve.ready.version)} at ${serve.baseUrl}\n` });
    expect(serve.ready).toMatchObject({ object: 'serve_ready', base_url: serve.baseUrl });
    expect(serve.ready.env).toEqual({
      SCANCTL_BASE_URL: serve.baseUrl,
      SCANCTL_APP_ID: DEMO.appId,
      SCANCTL_SECRET_KEY: DEMO.testSecret,
      SCANCTL_PUBLISHABLE_KEY: DEMO.testPublishable,
      SCANCTL_WEBHOOK_SECRET: DEMO.webhookSecret,
    });
    expect(Object.keys(serve.ready.env as object)).toEqual(Object.keys(ENVIRONMENT));
    expect(await serve.stop()).toBe(0);
    // The ready line was read by the helper; nothing else came after it.
    expect(stdout).toBe('');
  });

  it('CHOICE-26: scanctl wait started before serve returns once serve is ready; after serve stops, health exits 1', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const waiting = runCli(['wait', '--base-url', baseUrl, '--timeout', '20s']);
    const serve = await startServe(['--port', String(port)], { db: ':memory:' });
    try {
      expect(await waiting).toMatchObject({ code: 0, stdout: `ready: scanctl ${String(serve.ready.version)} at ${baseUrl}\n` });
    } finally {
      await serve.stop();
    }
    const after = await runCli(['health', '--base-url', baseUrl]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('is not healthy: could not reach');
  });

  it('CHOICE-27: SCANCTL_HOST=0.0.0.0 with SCANCTL_ALLOWED_HOSTS admits the service name and loopback, refuses other names; SCANCTL_EXPORT_ON_EXIT writes the state on SIGTERM', async () => {
    const dir = tempDir('scanctl-e2e-container-');
    const exported = join(dir, 'export.json');
    const serve = await startServe([], {
      dir,
      env: { SCANCTL_HOST: '0.0.0.0', SCANCTL_ALLOWED_HOSTS: 'scanctl', SCANCTL_EXPORT_ON_EXIT: exported },
    });
    try {
      // A wildcard bind is announced (and recorded for the other commands) on loopback, a name the Host check admits.
      expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(serve.baseUrl).port;
      expect(await statusWithHost(serve.baseUrl, '/_scanctl/health', `scanctl:${port}`)).toBe(200);
      expect(await statusWithHost(serve.baseUrl, '/_scanctl/health', `localhost:${port}`)).toBe(200);
      expect(await statusWithHost(serve.baseUrl, '/_scanctl/health', `other:${port}`)).toBe(403);
      expect(serve.stderr()).toContain('listening on 0.0.0.0');
      const local = await runCli(['health'], { cwd: dir });
      expect(local.code, local.stderr).toBe(0);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(existsSync(exported)).toBe(true);
    const state = JSON.parse(readFileSync(exported, 'utf8'));
    expect(state).toMatchObject({ format: 'scanctl-state', includes_secrets: true });
    expect(state.tables.apps.map((app: { id: string }) => app.id)).toContain(DEMO.appId);
  });
});
