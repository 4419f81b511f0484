import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
    copy = mkdtempSync(join(tmpdir(), 'scanctl-code-cache-'));
    for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    bundle = join(copy, 'dist', 'bundle');
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** serve until its ready line, then SIGTERM; the line. */
  async function serveOnce(): Promise<{ base_url: string }> {
    const serve = spawn(process.execPath, [join(copy, 'bin', 'scanctl.js'), 'serve', '--port', '0', '--json', '--db', ':memory:'], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    serve.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    try {
      return await new Promise((resolve, reject) => {
        let out = '';
        serve.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
        });
        serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('exit', resolve));
      expect(stderr).toMatch(/^(scanctl: emulator stopped\n)?$/);
    }
  }

  // A cache V8 rejected would be written again: one left as it was is one V8 took.
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
