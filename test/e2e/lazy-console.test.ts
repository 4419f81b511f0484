import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The web console's code (its pages, hono/jsx) loads on the first console request, not at
 * start-up: with its bundle chunk deleted from a copy of the built CLI, --version and serve still
 * work, and serve's ready line names the console's URL.
 */
describe('the web console loads only when a console page is requested', () => {
  it('--version and serve work without the console chunk; the ready line names the console URL', () => {
    const copy = mkdtempSync(join(tmpdir(), 'scanctl-lazy-console-'));
    try {
      for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      const bundle = join(copy, 'dist', 'bundle');
      const consoleChunks = readdirSync(bundle).filter((file) => readFileSync(join(bundle, file), 'utf8').includes('Sign in to the scanctl console'));
      expect(consoleChunks.length).toBe(1);
      expect(consoleChunks).not.toContain('main.js');
      for (const file of consoleChunks) rmSync(join(bundle, file));

      const bin = join(copy, 'bin', 'scanctl.js');
      expect(spawnSync(process.execPath, [bin, '--version'], { cwd: copy, encoding: 'utf8', timeout: 20_000 }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const served = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--json', '--db', ':memory:'], {
        cwd: copy,
        encoding: 'utf8',
        timeout: 5_000,
        killSignal: 'SIGTERM',
      });
      const ready = JSON.parse(served.stdout.split('\n')[0]!) as { event: string; base_url: string; console_url: string };
      expect(ready).toMatchObject({ event: 'ready' });
      expect(ready.console_url).toBe(`${ready.base_url}/`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
