import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { scanctlArgv, runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/** `scan simulate --wait`: a CI job can assert that its receiver acknowledges every delivery. */
describe('scanctl scan simulate --wait (built CLI, real receiver)', () => {
  let serve: ServeProcess | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await serve?.stop();
    await receiver?.close();
  });

  it('exits 0 once every delivery of the simulated scans is acknowledged', async () => {
    serve = await startServe();
    receiver = await startReceiver(DEMO.webhookSecret, () => 204);
    const at = ['--base-url', serve.baseUrl];
    expect((await runCli(['app', 'update', '--webhook-url', receiver.url, '--results-delivery', 'on', ...at])).code).toBe(0);
    const run = await runCli(['scan', 'simulate', '--user', 'member_w', '--count', '2', '--wait', '--json', ...at]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({
      object: 'wait',
      ok: true,
      until: 'acknowledged',
      acknowledged: 4,
      deliveries: 4,
      reason: null,
      delivery: null,
      clock_moves: [],
      log: null,
    });
    // Two scans, each scan.completed + scan.results_available, all verified by the receiver itself.
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.every((d) => d.signatureValid)).toBe(true);
  });

  it('exits 5 with the last status when a delivery exhausts its 17 attempts', async () => {
    serve = await startServe();
    receiver = await startReceiver(DEMO.webhookSecret, () => 500);
    const at = ['--base-url', serve.baseUrl];
    await runCli(['app', 'update', '--webhook-url', receiver.url, ...at]);
    const child = spawn(...scanctlArgv(['scan', 'simulate', '--user', 'member_x', '--wait', '--timeout', '60s', ...at]), {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The first attempt fails at once; then the virtual clock plays the 16 retries.
    await receiver.waitFor(1, 20_000);
    const advanced = await runCli(['clock', 'advance', '60h', ...at]);
    expect(advanced.code).toBe(0);
    expect(await exited).toBe(5);
    expect(receiver.received).toHaveLength(17);
    expect(stderr).toMatch(/exhausted its attempts \(last status 500/);
  });

  it('exits 5 when the timeout passes first', async () => {
    serve = await startServe();
    receiver = await startReceiver(DEMO.webhookSecret, () => 503);
    const at = ['--base-url', serve.baseUrl];
    await runCli(['app', 'update', '--webhook-url', receiver.url, ...at]);
    const run = await runCli(['scan', 'simulate', '--user', 'member_t', '--wait', '--timeout', '1s', ...at]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/timed out after 1s waiting for webhook deliveries \(0 of 1 acknowledged; last status 503/);
  });
});
