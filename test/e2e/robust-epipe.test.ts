import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scanctlArgv, startServe } from '../helpers/cli.js';

/**
 * `scanctl openapi | head -1`: the reader closes the pipe after what it wanted. The CLI must
 * end quietly (exit 0, nothing on stderr), not die of an unhandled EPIPE with a stack trace.
 */
function readFirstChunkThenClose(
  args: string[],
  trigger?: () => Promise<void>,
): Promise<{ code: number | null; signal: string | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...scanctlArgv(args), {
      env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first = '';
    // The requests that make more lines: waited for before the test goes on (and stops serve under them).
    let triggered: Promise<void> = Promise.resolve();
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8');
      child.stdout.destroy(); // like `head` exiting: the next write fails with EPIPE
      triggered = trigger?.() ?? triggered;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`scanctl ${args.join(' ')} did not exit after its reader went away: ${stderr}`));
    }, 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      triggered.then(() => resolve({ code, signal, first, stderr }), reject);
    });
  });
}

describe('robustness: output into a closed pipe', () => {
  it('scanctl openapi | head -1 exits 0 without a stack trace', async () => {
    const result = await readFirstChunkThenClose(['openapi']);
    expect(result.first.startsWith('{')).toBe(true);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('scanctl logs tail (following) | head -1 ends at the next line it cannot write', async () => {
    const serve = await startServe();
    try {
      // -n 1 prints one backlog line at once (the mint below or the ready probe), then follows.
      await fetch(`${serve.baseUrl}/v1/sessions`, { method: 'POST' });
      const result = await readFirstChunkThenClose(['logs', 'tail', '--json', '-n', '1', '--base-url', serve.baseUrl], async () => {
        // More lines arrive after the reader left: writing them fails, and the command ends.
        for (let i = 0; i < 3; i++) await fetch(`${serve.baseUrl}/v1/sessions`, { method: 'POST' });
      });
      expect(JSON.parse(result.first.split('\n')[0]!).path).toBe('/v1/sessions');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    } finally {
      await serve.stop();
    }
  });
});
