import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageCopy, startServe } from '../helpers/cli.js';

/**
 * Start-up is part of the product: --version, --help and serve must not load ink or react. Proven
 * by deleting every bundle chunk that holds them from a copy of the built CLI: the commands that
 * do not draw a TUI still work.
 */
describe('ink and react load only where a TUI is drawn', () => {
  it('--version, --help, command help and serve work without the ink/react chunks', async () => {
    const copy = packageCopy('scanctl-lazy-');
    const bundle = join(copy, 'dist', 'bundle');
    const tuiChunks = readdirSync(bundle).filter((file) =>
      /react\.(transitional\.)?element|useInput/.test(readFileSync(join(bundle, file), 'utf8')),
    );
    expect(tuiChunks.length).toBeGreaterThan(0);
    expect(tuiChunks).not.toContain('cli.cjs');
    for (const file of tuiChunks) rmSync(join(bundle, file));

    const run = (args: string[]) =>
      spawnSync(process.execPath, [join(copy, 'bin', 'scanctl.js'), ...args], { cwd: copy, encoding: 'utf8', timeout: 20_000 });
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const args of [['--help'], ['serve', '--help'], ['webhook', 'listen', '--help'], ['scan', 'simulate', '--help']]) {
      const result = run(args);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    }
    // serve reaches its ready line.
    const served = await startServe([], { bin: join(copy, 'bin', 'scanctl.js'), dir: copy, db: ':memory:' });
    expect(served.ready).toMatchObject({ object: 'serve_ready' });
    await served.stop();
  });
});
