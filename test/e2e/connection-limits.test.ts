import { execFileSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { maxConnectionsFor, openFileLimit } from '../../src/emulator/http/connection-limits.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { SCANCTL_SHELL, startServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** An open connection that never sends a byte; resolves once connected. */
function idleConnection(baseUrl: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve({ socket, closed }));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

describe('CHOICE-39: connection limits (built CLI)', () => {
  it('CHOICE-39: more idle connections than the limit do not lock other clients out: the longest idle ones are closed, logged once', async () => {
    const serve = await startServe([], { env: { SCANCTL_MAX_CONNECTIONS: '20' } });
    cleanups.push(() => serve.kill());
    const idle = [];
    for (let i = 0; i < 40; i += 1) idle.push(await idleConnection(serve.baseUrl));
    // Serve made room for each new one by closing the longest idle: the first 20 are gone.
    await Promise.all(idle.slice(0, 20).map((c) => c.closed));
    // Another client is served, and again, each time on a new connection.
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${serve.baseUrl}/_scanctl/clock`, { headers: { connection: 'close' } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    for (const c of idle) c.socket.destroy();
    expect(await serve.stop()).toBe(0);
    expect(
      serve.stderr().match(/scanctl: connections: 20 open connections \(the limit\): closed the longest idle one for a new one\n/g),
    ).toHaveLength(1);
  });

  it('CHOICE-39: the limit is three quarters of the open-file limit less 32 (1,024 files: 736), read from the process', () => {
    expect(maxConnectionsFor(1024)).toBe(736);
    expect(maxConnectionsFor(65_536)).toBe(16_384);
    expect(maxConnectionsFor(64)).toBe(16);
    expect(maxConnectionsFor(null)).toBe(736);
    const shell = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    expect(openFileLimit()).toBe(shell === 'unlimited' ? Infinity : Number(shell));
  });

  it.skipIf(process.platform === 'win32')(
    'CHOICE-39: under a file limit of 256, 300 idle connections leave serve able to answer others (the limit is measured from the file limit: 160)',
    async () => {
      const dir = tempDir('scanctl-nofile-');
      const child = spawn('sh', ['-c', `ulimit -n 256 && exec ${SCANCTL_SHELL} serve --port 0 --json --db "${join(dir, 'e.db')}"`], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      cleanups.push(async () => (child.kill('SIGKILL'), exited));
      const ready = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)));
      const baseUrl = String(ready.base_url);
      const idle = [];
      for (let i = 0; i < 300; i += 1) idle.push(await idleConnection(baseUrl));
      for (let i = 0; i < 5; i += 1) {
        const response = await fetch(`${baseUrl}/_scanctl/clock`, { headers: { connection: 'close' } });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      const open = idle.filter((c) => !c.socket.destroyed && c.socket.readyState === 'open').length;
      for (const c of idle) c.socket.destroy();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(open).toBeLessThanOrEqual(160);
      expect(stderr).toMatch(/scanctl: connections: 160 open connections \(the limit\)/);
      expect(stderr).not.toMatch(/EMFILE|\n\s+at /);
    },
  );
});
