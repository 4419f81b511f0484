import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { runCli, startServe } from '../helpers/cli.js';
import { control } from '../helpers/robust.js';
import { playScans } from '../helpers/scans.js';
import { listenOnLoopback } from '../helpers/net.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/** A receiver that accepts connections, reads, and never answers. */
async function hungReceiver(): Promise<string> {
  const server = net.createServer((socket) => socket.resume());
  const { port, close } = await listenOnLoopback(server);
  cleanups.push(close);
  return `http://127.0.0.1:${port}/hook`;
}

describe('serve --attempt-timeout (CHOICE-23, built CLI)', () => {
  it('CHOICE-23: attempts against a receiver that never answers give up after the given time; clock advance 45h plays all 17 in bounded real time', async () => {
    const serve = await startServe(['--attempt-timeout', '100ms', '--frozen-clock']);
    cleanups.push(() => serve.stop());
    const url = await hungReceiver();
    expect((await runCli(['app', 'update', '--webhook-url', url, '--base-url', serve.baseUrl])).code).toBe(0);
    await playScans(serve.baseUrl, 1);
    const started = performance.now();
    const advanced = await runCli(['clock', 'advance', '45h', '--base-url', serve.baseUrl]);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(performance.now() - started).toBeLessThan(20_000);
    const list = await control<{ data: Array<{ id: string; status: string; attempts: number; last_error: string }> }>(
      serve.baseUrl,
      '/webhooks/deliveries',
    );
    expect(list.data.map(({ status, attempts, last_error }) => ({ status, attempts, last_error }))).toEqual([
      { status: 'failed', attempts: 17, last_error: 'timed out after 100 ms waiting for the answer' },
    ]);
  });

  it('a value that is not a duration, or out of range, is one line and exit 2', async () => {
    for (const value of ['soon', '0ms', '11s']) {
      const out = await runCli(['serve', '--port', '0', '--db', ':memory:', '--attempt-timeout', value]);
      expect(out.code, value).toBe(EXIT.usage);
      expect(out.stderr.trim().split('\n'), value).toHaveLength(1);
      expect(out.stderr, value).toMatch(/--attempt-timeout/);
    }
  });
});
