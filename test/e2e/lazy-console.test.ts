import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the bundle evaluates the console's app module (esbuild's lazy module wrapper, keyed by its path). */
const CONSOLE_APP_INIT = '"src/console/app.tsx"(){';

/**
 * The web console's code (its pages, hono/jsx) is evaluated on the first console request, not at
 * start-up: in a copy of the built CLI whose console module throws when evaluated, --version and
 * serve work, serve's ready line names the console's URL and the API answers; only a console page fails.
 */
describe('the web console loads only when a console page is requested', () => {
  it('--version and serve work when the console cannot load; the ready line names the console URL', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'scanctl-lazy-console-'));
    try {
      for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      const bundle = join(copy, 'dist', 'bundle', 'cli.cjs');
      const source = readFileSync(bundle, 'utf8');
      expect(source.split(CONSOLE_APP_INIT)).toHaveLength(2);
      writeFileSync(bundle, source.replace(CONSOLE_APP_INIT, `${CONSOLE_APP_INIT}throw new Error("console evaluated");`));

      const bin = join(copy, 'bin', 'scanctl.js');
      expect(spawnSync(process.execPath, [bin, '--version'], { cwd: copy, encoding: 'utf8', timeout: 20_000 }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const serve = spawn(process.execPath, [bin, 'serve', '--port', '0', '--json', '--db', ':memory:'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const line = await new Promise<string>((resolve, reject) => {
          let out = '';
          serve.stdout.on('data', (chunk: Buffer) => {
            out += chunk;
            if (out.includes('\n')) resolve(out.split('\n')[0]!);
          });
          serve.once('exit', (code) => reject(new Error(`serve exited ${code} before its ready line`)));
        });
        const ready = JSON.parse(line) as { event: string; base_url: string; console_url: string };
        expect(ready).toMatchObject({ event: 'ready' });
        expect(ready.console_url).toBe(`${ready.base_url}/`);
        const api = await fetch(`${ready.base_url}/v1/sessions`, { method: 'POST', headers: { authorization: 'Bearer sk_test_demoSecretKey00000000000001', 'content-type': 'application/json' }, body: '{"host_user_ref":"m1"}' });
        expect(api.status).toBe(201);
        // The module that throws is the console's: its first page is where it would run.
        expect((await fetch(ready.console_url)).status).toBe(500);
      } finally {
        serve.kill('SIGTERM');
        await new Promise((resolve) => serve.once('exit', resolve));
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
