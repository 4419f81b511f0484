import { describe, expect, it } from 'vitest';
import { runCommand } from '../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../helpers/emulator.js';

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('--json everywhere', () => {
  it('an API error under --json is one JSON object on stdout with the same exit code', async () => {
    const emulator = testEmulator();
    const plain = await runCommand(['app', 'show', '--app', 'app_nope'], { emulator });
    const res = await runCommand(['app', 'show', '--app', 'app_nope', '--json'], { emulator });
    expect(res.code).toBe(plain.code);
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('');
    expect(lines(res.stdout)).toEqual([
      {
        object: 'error',
        error: { type: 'invalid_request_error', code: 'resource_missing', message: expect.any(String), param: 'app_id' },
        http_status: 404,
        exit_code: 3,
      },
    ]);
    const badKey = await runCommand(['session', 'mint', '--user', 'm', '--key', 'sk_test_nope', '--json'], { emulator });
    expect(lines(badKey.stdout)[0]).toMatchObject({
      object: 'error',
      error: { type: 'authentication_error', code: 'invalid_api_key' },
      http_status: 401,
      exit_code: 3,
    });
  });

  it('usage, connection and CLI errors under --json are one JSON object too (exit 2, 4, 2)', async () => {
    const usage = await runCommand(['clock', 'advance', 'soon', '--json']);
    expect(usage).toMatchObject({ code: 2, stderr: '' });
    expect(lines(usage.stdout)).toEqual([
      {
        object: 'error',
        error: { type: 'usage_error', code: 'invalid_argument', message: expect.stringContaining('Expected a duration'), param: null },
        http_status: null,
        exit_code: 2,
      },
    ]);
    const down = await runCommand(['clock', 'show', '--json', '--base-url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(4);
    expect(lines(down.stdout)[0]).toMatchObject({
      object: 'error',
      error: { type: 'connection_error', code: 'connection_failed' },
      http_status: null,
      exit_code: 4,
    });
    const nothing = await runCommand(['app', 'update', '--json'], { emulator: testEmulator() });
    expect(nothing.code).toBe(2);
    expect(lines(nothing.stdout)[0]).toMatchObject({
      object: 'error',
      error: { type: 'usage_error', code: 'usage', message: expect.stringContaining('nothing to update') },
      exit_code: 2,
    });
  });

  it('logs tail --json: each line is named by object and absent values are null', async () => {
    const emulator = testEmulator();
    await runCommand(['session', 'mint', '--user', 'm'], { emulator });
    await runCommand(['session', 'mint', '--user', 'm', '--key', DEMO.testPublishable], { emulator });
    const res = await runCommand(['logs', 'tail', '--no-follow', '--json', '-n', '2'], { emulator });
    const [ok, refused] = lines(res.stdout);
    expect(ok).toMatchObject({ object: 'request_log_line', status: 201, key: 'sk_test_...0001', env: 'test', error_code: null });
    expect(refused).toMatchObject({
      object: 'request_log_line',
      status: 401,
      key: null,
      env: null,
      app_id: null,
      error_code: 'publishable_key_used',
    });
  });

  it('scan simulate --json --wait: the scan and then the wait outcome, each named by object', async () => {
    const res = await runCommand(['scan', 'simulate', '--user', 'm', '--json', '--wait'], { emulator: testEmulator() });
    expect(res.code).toBe(0);
    expect(lines(res.stdout).map((l) => l.object)).toEqual(['simulated_scan', 'wait']);
    expect(lines(res.stdout)[1]).toEqual({
      object: 'wait',
      ok: true,
      until: 'acknowledged',
      acknowledged: 0,
      deliveries: 0,
      reason: null,
      delivery: null,
      clock_moves: [],
      log: null,
    });
  });
});
