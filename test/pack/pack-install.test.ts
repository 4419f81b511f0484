import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

/**
 * The package as a user gets it: `npm pack`, then a global install of the tarball into a clean
 * prefix (dependencies from the registry or npm's cache; better-sqlite3 compiles, about 70 s on
 * two cores), then the installed `scanctl` runs. Slow on purpose and alone in its file;
 * SCANCTL_SKIP_PACK=1 skips it in a local loop.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const skip = process.env.SCANCTL_SKIP_PACK === '1';

describe.skipIf(skip)('npm pack + global install of the tarball', () => {
  // Made in beforeAll, not while collecting: a skipped suite (SCANCTL_SKIP_PACK=1) runs no hook
  // that could remove it.
  let work = '';
  let prefix = '';
  let bin = '';
  let files: string[] = [];
  let installSeconds = 0;

  beforeAll(async () => {
    work = tempDir('scanctl-pack-');
    prefix = join(work, 'prefix');
    bin = join(prefix, 'bin', 'scanctl');
    // `npm test` builds first; pack what was built rather than building again.
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'run npm run build first').toBe(true);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = info!.files.map((f) => f.path);
    const tarball = join(work, info!.filename);
    const started = performance.now();
    await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: work,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 280_000,
    });
    installSeconds = (performance.now() - started) / 1000;
    console.log(`pack-install: npm install -g of the tarball took ${installSeconds.toFixed(1)} s`);
  }, 300_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('ships the built CLI, the launcher and the fixtures, and no sources, tests or benchmarks', () => {
    expect(files).toContain('bin/scanctl.js');
    // The launcher is CommonJS (bin/package.json): without it, Node would read it as an ES module and fail.
    expect(files).toContain('bin/package.json');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('fixtures/default.json');
    expect(files).toContain('package.json');
    expect(files.filter((f) => /^(src|test|bench)\//.test(f))).toEqual([]);
  });

  it('the installed scanctl answers --version', async () => {
    const { stdout } = await run(bin, ['--version'], { cwd: work });
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('the installed scanctl serves (JSON ready line), mints a session against itself and prints the OpenAPI document', async () => {
    const dir = mkdtempSync(join(work, 'run-'));
    const child = spawn(bin, ['serve', '--port', '0', '--json', '--db', join(dir, 'emulator.db')], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line: ${stderr}`)), 20_000);
        createInterface({ input: child.stdout }).once('line', (l) => {
          clearTimeout(timer);
          resolve(l);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      const ready = JSON.parse(line) as { event: string; base_url: string; app_id: string; fixtures: string };
      expect(ready).toMatchObject({ event: 'ready', app_id: 'app_demo' });
      // The bundled fixtures come from the installed package, not from this repository.
      expect(ready.fixtures.startsWith(prefix)).toBe(true);

      const minted = await run(bin, ['session', 'mint', '--user', 'member_1', '--json', '--base-url', ready.base_url], { cwd: dir });
      expect(JSON.parse(minted.stdout).session_token).toMatch(/^vst_/);

      const openapi = await run(bin, ['openapi'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
      expect(JSON.parse(openapi.stdout)).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
