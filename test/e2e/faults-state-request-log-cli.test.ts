import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanctlArgv, runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { Condition } from '../helpers/wait.js';

describe('scanctl logs tail following (built CLI, real socket; the rest is in test/unit/cli/commands/faults-state-logs.test.ts)', () => {
  let serve: ServeProcess;
  const cli = (args: string[]) => runCli([...args, '--base-url', serve.baseUrl]);
  beforeAll(async () => {
    serve = await startServe();
  });
  afterAll(async () => {
    await serve?.stop();
  });

  it('logs tail follows the live log (SSE): a request made after it started is printed', async () => {
    const child = spawn(...scanctlArgv(['logs', 'tail', '-n', '0', '--path', '/v1/results', '--base-url', serve.baseUrl]), {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Each chunk of output is the event a check waits on; no timer polls.
    const output = new Condition();
    child.stdout.on('data', (c) => ((stdout += c), output.notify()));
    child.stderr.on('data', (c) => ((stderr += c), output.notify()));
    const waitFor = (read: () => string, needle: string) =>
      output.until(
        () => `${needle}: ${read()} ${stderr}`,
        () => read().includes(needle),
        10_000,
      );
    try {
      await waitFor(() => stderr, 'Following the request log');
      await cli(['session', 'mint', '--user', 'ignored_by_filter']);
      await cli(['results', 'delete', '--user', 'member_log']);
      await waitFor(() => stdout, '/v1/results');
      expect(stdout).not.toContain('/v1/sessions');
      expect(stdout).toMatch(/DELETE\s+\/v1\/results\s+200\s+sk_test_\.\.\.0001 \(test\)/);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
    expect(child.exitCode ?? 0).toBe(0);
  });
});
