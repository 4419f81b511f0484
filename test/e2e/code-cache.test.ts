import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageCopy, startServe } from '../helpers/cli.js';

/**
 * bin/scanctl.js compiles the bundle with V8's code cache: written by the build for serve, by a
 * command itself when missing or unusable, keyed on the bundle's content and Node's version and
 * flags. A cache that does not fit never breaks a command.
 */
describe('the code cache of the bundled CLI', () => {
  let copy: string;
  let bundle: string;
  const caches = (kind: string) => readdirSync(bundle).filter((name) => name.startsWith(`cli.${kind}.`) && name.endsWith('.v8cache'));

  beforeAll(() => {
    copy = packageCopy('scanctl-code-cache-');
    bundle = join(copy, 'dist', 'bundle');
  });

  /** serve until its ready line, then SIGTERM; it says nothing but that it stopped. */
  async function serveOnce(): Promise<{ base_url: string }> {
    const serve = await startServe([], { bin: join(copy, 'bin', 'scanctl.js'), dir: copy, db: ':memory:' });
    await serve.stop();
    expect(serve.stderr()).toMatch(/^(scanctl: emulator stopped\n)?$/);
    return { base_url: serve.baseUrl };
  }

  it('the build wrote the cache of serve; serve takes it and leaves it as it was', async () => {
    const [cache] = caches('serve');
    expect(cache).toBeDefined();
    const before = statSync(join(bundle, cache!)).mtimeMs;
    expect((await serveOnce()).base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(caches('serve')).toEqual([cache]);
    expect(statSync(join(bundle, cache!)).mtimeMs).toBe(before);
  });

  it('a cache V8 rejects (here: garbage) changes nothing the user sees, and is written again', async () => {
    const [cache] = caches('serve');
    writeFileSync(join(bundle, cache!), Buffer.alloc(4096, 7));
    await serveOnce();
    const rewritten = readFileSync(join(bundle, cache!));
    expect(rewritten.length).toBeGreaterThan(100_000);
    expect(rewritten.equals(Buffer.alloc(rewritten.length, 7))).toBe(false);
  });

  it('other commands write their own cache when they exit; a changed bundle is another key', () => {
    for (const name of caches('cli')) rmSync(join(bundle, name));
    const run = () => spawn(process.execPath, [join(copy, 'bin', 'scanctl.js'), 'clock', '--help'], { cwd: copy, stdio: 'ignore' });
    return new Promise<void>((resolve) => run().once('exit', () => resolve())).then(async () => {
      const [first] = caches('cli');
      expect(first).toBeDefined();
      const source = readFileSync(join(bundle, 'cli.cjs'), 'utf8');
      // Same length, other content: V8 alone would take the old cache (it checks the length only).
      writeFileSync(join(bundle, 'cli.cjs'), source.replace('listening on', 'listening at'));
      await new Promise<void>((resolve) => run().once('exit', () => resolve()));
      expect(caches('cli')).toHaveLength(2);
      expect(caches('cli')).toContain(first);
    });
  });
});
