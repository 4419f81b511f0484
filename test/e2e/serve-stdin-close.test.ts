import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * What the test libraries of clients/ start serve with: its stdin is a pipe whose write end only
 * the test process holds, so when that process ends (closed on purpose, or killed with -9) serve
 * stops and nothing is left behind.
 */
describe('serve --stop-on-stdin-close', () => {
  it('CHOICE-50: stops cleanly (exit 0) once its stdin ends, and not before', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--db', ':memory:', '--stop-on-stdin-close'], {
      cwd: tempDir('scanctl-stdin-close-'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const ready = JSON.parse(line) as { object: string; base_url: string };
    expect(ready.object).toBe('serve_ready');
    expect((await fetch(`${ready.base_url}/_scanctl/health`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(child.exitCode, 'still serving while stdin is open').toBeNull();
    const exited = once(child, 'exit');
    child.stdin.end();
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    await expect(fetch(`${ready.base_url}/_scanctl/health`)).rejects.toThrow();
  });

  it(
    'CHOICE-50: a SIGTERM while stdin is still open stops it at once too (stdin no longer keeps it alive)',
    { timeout: 60_000 },
    async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--db', ':memory:', '--stop-on-stdin-close'], {
        cwd: tempDir('scanctl-stdin-close-'),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      await once(createInterface({ input: child.stdout }), 'line');
      const started = Date.now();
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      child.stdin.end();
    },
  );
});
