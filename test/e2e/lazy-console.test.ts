import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageCopy, startServe } from '../helpers/cli.js';

/** Where the bundle evaluates the console's app module (esbuild's lazy module wrapper, keyed by its path). */
const CONSOLE_APP_INIT = '"src/console/app.tsx"(){';

/**
 * The web console's code (its pages, hono/jsx) is evaluated on the first console request, not at
 * start-up: in a copy of the built CLI whose console module throws when evaluated, --version and
 * serve work, serve's ready line names the console's URL and the API answers; only a console page fails.
 */
describe('the web console loads only when a console page is requested', () => {
  it('--version and serve work when the console cannot load; the ready line names the console URL', async () => {
    const copy = packageCopy('scanctl-lazy-console-');
    const bundle = join(copy, 'dist', 'bundle', 'cli.cjs');
    const source = readFileSync(bundle, 'utf8');
    expect(source.split(CONSOLE_APP_INIT)).toHaveLength(2);
    writeFileSync(bundle, source.replace(CONSOLE_APP_INIT, `${CONSOLE_APP_INIT}throw new Error("console evaluated");`));

    const bin = join(copy, 'bin', 'scanctl.js');
    expect(spawnSync(process.execPath, [bin, '--version'], { cwd: copy, encoding: 'utf8', timeout: 20_000 }).stdout.trim()).toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    const serve = await startServe([], { bin, dir: copy, db: ':memory:' });
    try {
      expect(serve.ready).toMatchObject({ object: 'serve_ready' });
      expect(serve.ready.console_url).toBe(`${serve.baseUrl}/`);
      const api = await fetch(`${serve.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_test_demoSecretKey00000000000001', 'content-type': 'application/json' },
        body: '{"host_user_ref":"m1"}',
      });
      expect(api.status).toBe(201);
      // The module that throws is the console's: its first page is where it would run.
      expect((await fetch(`${serve.baseUrl}/`)).status).toBe(500);
    } finally {
      await serve.stop();
    }
  });
});
