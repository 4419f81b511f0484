import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPack } from '../helpers/skip-pack.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The package as a user gets it: `npm pack`, then a global install of the tarball into a clean
 * prefix (dependencies from the registry or npm's cache; better-sqlite3 compiles, about 70 s on
 * two cores), then the installed `scanctl` runs. Slow on purpose and alone in its file;
 * SCANCTL_SKIP_PACK=1 skips it in a local loop.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
const skip = skipPack('pack-install');

describe.skipIf(skip)('npm pack + global install of the tarball', () => {
  // Made in beforeAll, not while collecting: a skipped suite (SCANCTL_SKIP_PACK=1) runs no hook
  // that could remove it.
  let work = '';
  let prefix = '';
  let bin = '';
  let files: string[] = [];
  let tarball = '';
  let installSeconds = 0;

  beforeAll(async () => {
    work = tempDir('scanctl-pack-');
    prefix = join(work, 'prefix');
    bin = join(prefix, 'bin', 'scanctl');
    // `npm test` builds first; pack what was built rather than building again.
    expect(existsSync(join(ROOT, 'dist', 'bundle', 'cli.cjs')), 'run npm run build first').toBe(true);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = info!.files.map((f) => f.path);
    tarball = join(work, info!.filename);
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

  // The whole list is checked in package-files.test.ts; this is the tarball installed below.
  it('ships the built CLI, the launcher and the fixtures, and no sources, tests or benchmarks', () => {
    expect(files).toContain('bin/scanctl.js');
    // The launcher is CommonJS (bin/package.json): without it, Node would read it as an ES module and fail.
    expect(files).toContain('bin/package.json');
    expect(files).toContain('dist/bundle/cli.cjs');
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
      expect(ready).toMatchObject({ object: 'serve_ready', app_id: 'app_demo' });
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

  /**
   * A customer's project outside this repository: the tarball installed as a dependency beside
   * vitest, typescript and @types/node (the versions this repository uses), and the example
   * backend copied in as the README says to.
   */
  describe('a project that depends on the tarball', () => {
    let project = '';

    beforeAll(async () => {
      project = join(work, 'project');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'customer', private: true, type: 'module' }));
      const dev = ['vitest', 'typescript', '@types/node'].map((name) => `${name}@${pkg.devDependencies[name]}`);
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...dev], {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 280_000,
      });
      cpSync(join(ROOT, 'examples'), join(project, 'examples'), { recursive: true });
    }, 300_000);

    it('the published types stand alone: a consumer type-checks with skipLibCheck false (no better-sqlite3 types needed)', async () => {
      writeFileSync(
        join(project, 'consumer.ts'),
        [
          "import { startEmulator, type EmulatorHandle, type StartEmulatorOptions } from 'scanctl';",
          "import { verifySignature, signPayload } from 'scanctl/verify';",
          'const options: StartEmulatorOptions = { seed: 1, clock: { frozen: true } };',
          'const emu: EmulatorHandle = await startEmulator(options);',
          'const deliveries = await emu.deliveries({ status: "succeeded" });',
          'console.log(deliveries.length, typeof verifySignature, typeof signPayload);',
          'await emu.close();',
          '',
        ].join('\n'),
      );
      const compilerOptions = {
        strict: true,
        skipLibCheck: false,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        types: ['node'],
      };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
      const checked = await run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: project }).catch(
        (error: { stdout: string; code: number }) => error,
      );
      expect((checked as { stdout: string }).stdout).toBe('');
      expect((checked as { code?: number }).code ?? 0).toBe(0);
    }, 120_000);

    it("imports as a user's code does: startEmulator from 'scanctl', verifySignature from 'scanctl/verify'", async () => {
      const script = `
        const { startEmulator } = await import('scanctl');
        const { verifySignature, signPayload } = await import('scanctl/verify');
        const emu = await startEmulator();
        const status = await fetch(emu.baseUrl + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + emu.secretKey, 'content-type': 'application/json' }, body: JSON.stringify({ host_user_ref: 'm' }) }).then((r) => r.status);
        await emu.close();
        const signature = signPayload('{}', 'whsec_x');
        console.log(JSON.stringify({ status, resolved: import.meta.resolve('scanctl'), verified: verifySignature('{}', signature, 'whsec_x') }));
      `;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, timeout: 30_000 });
      const out = JSON.parse(stdout) as { status: number; resolved: string; verified: boolean };
      expect(out).toMatchObject({ status: 201, verified: true });
      expect(out.resolved.startsWith(`file://${project}/node_modules/scanctl/`)).toBe(true);
    }, 60_000);

    it('the examples run from the copy, against the installed package (no path into this repository)', async () => {
      // examples/backend's; examples/express is a project of its own (its own Express), run by test/e2e/express-example.test.ts.
      const tested = await run(join(project, 'node_modules', '.bin', 'vitest'), ['run', 'examples/backend'], {
        cwd: project,
        env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', SCANCTL_SECRET_KEY: '' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 280_000,
      }).catch((error: { stdout: string; stderr: string }) => error);
      const out = `${(tested as { stdout: string }).stdout}${(tested as { stderr: string }).stderr}`;
      expect(out).not.toContain('Cannot find module');
      expect(out).toMatch(/Test Files\s+4 passed \(4\)/);
    }, 300_000);
  });
});
