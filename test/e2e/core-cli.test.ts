import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exeNodeVersion, runCli, scanctlArgv, startServe, TEST_EXE, type ServeProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { freePort } from '../helpers/net.js';

const DEMO_TEST_SECRET = 'sk_test_demoSecretKey00000000000001';
const DEMO_LIVE_SECRET = 'sk_live_demoSecretKey00000000000001';

const json = (stdout: string) => JSON.parse(stdout);

describe('scanctl as a process (the rest runs in-process: test/unit/cli/)', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    // The single executable also says so, and which Node it carries.
    if (TEST_EXE)
      expect(result.stdout).toBe(`${pkg.version} (single executable, Node ${exeNodeVersion()}, ${process.platform}-${process.arch})\n`);
    else expect(result.stdout).toBe(`${pkg.version}\n`);
  });

  it('a connection error to a real closed port exits 4 naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const res = await runCli(['clock', 'show', '--base-url', url]);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain(`could not reach ${url}`);
  });
});

describe('scanctl commands against a running serve', () => {
  let serve: ServeProcess;
  const cli = (args: string[], env?: Record<string, string>) => runCli([...args, '--base-url', serve.baseUrl], { env });

  beforeAll(async () => {
    serve = await startServe();
  });
  afterAll(async () => {
    await serve?.stop();
  });

  it('serve --json: the first stdout line is the ready event; in its folder the CLI finds it without --base-url', async () => {
    expect(serve.ready).toMatchObject({
      object: 'serve_ready',
      app_id: 'app_demo',
      test_secret_key: DEMO_TEST_SECRET,
      db: serve.db,
    });
    expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(readFileSync(join(serve.dir, '.scanctl/serve.json'), 'utf8'))).toMatchObject({
      base_url: serve.baseUrl,
      pid: serve.child.pid,
    });
    const local = await runCli(['session', 'mint', '--user', 'm', '--json'], { cwd: serve.dir });
    expect(local.code).toBe(0);
    expect(json(local.stdout).session_token).toMatch(/^vst_/);
  });

  it('AUTH-11: a key created with the CLI is in neither the database file nor its WAL', async () => {
    expect((await cli(['key', 'revoke', '--app', 'app_trial'])).code).toBe(0);
    const created = await cli(['key', 'create', '--app', 'app_trial']);
    expect(created.code).toBe(0);
    const secret = /(sk_test_[A-Za-z0-9]{16,})/.exec(created.stdout)![1]!;
    for (const file of [serve.db, `${serve.db}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(secret.slice(8))), file).toBe(false);
    }
  });
});

describe('serve lifecycle', () => {
  const started: ServeProcess[] = [];
  const start = async (...args: Parameters<typeof startServe>) => {
    const serve = await startServe(...args);
    started.push(serve);
    return serve;
  };
  afterAll(async () => {
    for (const serve of started) if (serve.child.exitCode === null) await serve.stop();
  });

  it('a second serve on the same database fails at once with exit 2 and a clear message; the first keeps working', async () => {
    const first = await start();
    const second = await runCli(['serve', '--port', '0', '--json', '--db', first.db], { cwd: first.dir });
    expect(second.code).toBe(2);
    // Under --json the error is one JSON object on stdout.
    const refusal = JSON.parse(second.stdout);
    expect(refusal).toMatchObject({ object: 'error', exit_code: 2 });
    expect(refusal.error.message).toContain(
      `the database ${first.db} is in use by another scanctl serve (pid ${first.child.pid}, ${first.baseUrl})`,
    );
    const plain = await runCli(['serve', '--port', '0', '--db', first.db], { cwd: first.dir });
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toContain(
      `scanctl: the database ${first.db} is in use by another scanctl serve (pid ${first.child.pid}, ${first.baseUrl})`,
    );
    expect(plain.stderr).toContain('hint:');
    const mint = await runCli(['session', 'mint', '--user', 'm', '--base-url', first.baseUrl]);
    expect(mint.code).toBe(0);
    expect(JSON.parse(readFileSync(join(first.dir, '.scanctl/serve.json'), 'utf8')).pid).toBe(first.child.pid);
  });

  it('serve --db :memory: in a folder that cannot hold .scanctl/serve.json serves anyway (a warning, never a 500)', async () => {
    const dir = tempDir('scanctl-e2e-');
    writeFileSync(join(dir, '.scanctl'), 'a file where the folder would go');
    const serve = await start([], { dir, db: ':memory:' });
    const clock = await fetch(`${serve.baseUrl}/_scanctl/clock`);
    expect(clock.status).toBe(200);
    expect((await runCli(['session', 'mint', '--user', 'm', '--base-url', serve.baseUrl])).code).toBe(0);
    expect(serve.stderr()).toContain(`cannot write .scanctl/serve.json`);
    expect(serve.stderr()).toContain(`--base-url ${serve.baseUrl}`);
    expect(await serve.stop()).toBe(0);
  });

  // A folder that exists but cannot hold a child: mkdir there says ENOENT, and Node's recursive mkdir spins on it for ever.
  const procDir = `/proc/${process.pid}`;

  it.runIf(process.platform === 'linux')(
    'serve --db :memory: under /proc: ready, the serve.json warning, answers, and stops (never a spin)',
    async () => {
      const serve = await start([], { dir: procDir, db: ':memory:' });
      expect((await fetch(`${serve.baseUrl}/_scanctl/clock`)).status).toBe(200);
      expect(serve.stderr()).toContain('scanctl: warning: cannot write .scanctl/serve.json (ENOENT)');
      expect(await serve.stop()).toBe(0);
    },
  );

  it.runIf(process.platform === 'linux')(
    'serve with the default database where .scanctl cannot be made: a user error, exit 2, not "a bug"',
    async () => {
      const res = await runCli(['serve', '--port', '0'], { cwd: procDir });
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(
        'scanctl: cannot create the folder of the database .scanctl/scanctl.db (ENOENT)\n  hint: pick another file with --db (or --db :memory:)\n',
      );
    },
  );

  it('two serves in one folder: stopping the second leaves the first findable; kill -9 leaves a record that says not running', async () => {
    const first = await start([], { db: ':memory:' });
    const second = await start([], { dir: first.dir, db: ':memory:' });
    const stateFile = join(first.dir, '.scanctl/serve.json');
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).pid).toBe(second.child.pid);
    expect(await second.stop()).toBe(0);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).pid).toBe(first.child.pid);
    await first.kill();
    const stale = await runCli(['clock', 'show'], { cwd: first.dir });
    expect(stale.code).toBe(4);
    expect(stale.stderr).toMatch(/^scanctl: the emulator is not running/);
  });

  it('SIGTERM exits 0 and removes .scanctl/serve.json', async () => {
    const serve = await start();
    const stateFile = join(serve.dir, '.scanctl/serve.json');
    expect(existsSync(stateFile)).toBe(true);
    expect(await serve.stop()).toBe(0);
    expect(existsSync(stateFile)).toBe(false);
  });

  it('SIGINT exits 0 and removes .scanctl/serve.json (human output)', async () => {
    const serve = await start();
    await serve.stop();
    const child = spawn(...scanctlArgv(['serve', '--port', '0', '--db', serve.db]), {
      cwd: serve.dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${stderr}`)), 20_000);
      child.stdout.on('data', (c) => {
        stdout += c;
        if (stdout.includes('Press Ctrl+C to stop.')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(stdout).toMatch(/^scanctl emulator \S+ listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stdout).toMatch(/kept from the database/);
    expect(existsSync(join(serve.dir, '.scanctl/serve.json'))).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain('emulator stopped');
    expect(existsSync(join(serve.dir, '.scanctl/serve.json'))).toBe(false);
  });

  it('a restart on the same database keeps a revoked key revoked and the clock offset; --reset empties it', async () => {
    const first = await start();
    const at = (s: ServeProcess, args: string[]) => runCli([...args, '--base-url', s.baseUrl]);
    expect((await at(first, ['key', 'revoke', '--env', 'live'])).code).toBe(0);
    expect((await at(first, ['clock', 'advance', '48h'])).code).toBe(0);
    expect(await first.stop()).toBe(0);

    const second = await start([], { dir: first.dir, db: first.db });
    const offset = json((await at(second, ['clock', 'show', '--json'])).stdout).offset_ms;
    expect(offset).toBe(48 * 3_600_000);
    const revoked = await at(second, ['session', 'mint', '--user', 'm', '--key', DEMO_LIVE_SECRET]);
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toContain('key_revoked');
    expect(await second.stop()).toBe(0);

    // SCANCTL_RESET=0 is not a reset.
    const third = await start([], { dir: first.dir, db: first.db, env: { SCANCTL_RESET: '0' } });
    expect((await at(third, ['session', 'mint', '--user', 'm', '--key', DEMO_LIVE_SECRET])).code).toBe(3);
    expect(await third.stop()).toBe(0);

    const fresh = await start(['--reset'], { dir: first.dir, db: first.db });
    expect(json((await at(fresh, ['clock', 'show', '--json'])).stdout).offset_ms).toBe(0);
    expect((await at(fresh, ['session', 'mint', '--user', 'm', '--key', DEMO_LIVE_SECRET])).code).toBe(0);
    expect(await fresh.stop()).toBe(0);
  });

  it('an explicit --fixtures file (or SCANCTL_FIXTURES) is loaded and upserted; a bad one exits 2 naming file, field and reason', async () => {
    const first = await start();
    await first.stop();
    const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));
    fixtures.apps[0].name = 'Renamed by fixtures';
    const file = join(first.dir, 'mine.json');
    writeFileSync(file, JSON.stringify(fixtures));
    const loaded = await start([], { dir: first.dir, db: first.db, env: { SCANCTL_FIXTURES: file } });
    expect(loaded.ready.fixtures).toBe(file);
    const app = json((await runCli(['app', 'show', '--json', '--base-url', loaded.baseUrl])).stdout);
    expect(app.name).toBe('Renamed by fixtures');
    await loaded.stop();

    fixtures.apps[1].team_id = 'SHORT';
    writeFileSync(file, JSON.stringify(fixtures));
    const bad = await runCli(['serve', '--port', '0', '--db', first.db, '--fixtures', file], { cwd: first.dir });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(`scanctl: invalid fixtures: ${file}: apps[1].team_id: must be exactly 10 characters\n`);
    const notJson = join(first.dir, 'broken.json');
    writeFileSync(notJson, '{');
    const broken = await runCli(['serve', '--port', '0', '--db', ':memory:', '--fixtures', notJson], { cwd: first.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${notJson}: not valid JSON`);
    const missing = await runCli(['serve', '--port', '0', '--db', ':memory:', '--fixtures', join(first.dir, 'nope.json')], {
      cwd: first.dir,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: cannot be read (ENOENT)');
  });

  it('SES-10: --rate-limit 1 (real socket) answers 429 rate_limited with Retry-After to a burst', async () => {
    const serve = await start(['--rate-limit', '1'], { db: ':memory:' });
    const info = (await (await fetch(`${serve.baseUrl}/_scanctl/info`)).json()) as { rate_limit_per_second: number };
    expect(info.rate_limit_per_second).toBe(1);
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${serve.baseUrl}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEMO_TEST_SECRET}`, 'content-type': 'application/json' },
          body: '{"host_user_ref":"m"}',
        }),
      ),
    );
    const limited = burst.filter((r) => r.status === 429);
    // Six requests span at most two one-second windows of one request each.
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(limited[0]!.headers.get('retry-after')).toBe('1');
    expect(((await limited[0]!.json()) as { error: unknown }).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    await serve.stop();
  });

  it('--db :memory:, a port in use and bad flags', async () => {
    const memory = await start([], { db: ':memory:' });
    expect(memory.ready).toMatchObject({ object: 'serve_ready', db: ':memory:' });
    const port = Number(new URL(memory.baseUrl).port);
    const busy = await runCli(['serve', '--port', String(port), '--db', ':memory:']);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    // With the default database: refused before anything is written in the folder.
    const fresh = tempDir('scanctl-e2e-');
    const busyDefault = await runCli(['serve', '--port', String(port)], { cwd: fresh });
    expect(busyDefault.code).toBe(2);
    expect(busyDefault.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(existsSync(join(fresh, '.scanctl'))).toBe(false);
    const badPort = await runCli(['serve', '--port', '70000', '--db', ':memory:']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toBe(
      "scanctl: option '--port <port>' argument '70000' is invalid. Expected a whole number from 0 to 65535. (see scanctl serve --help)\n",
    );
    const viaEnv = await runCli(['serve', '--db', ':memory:'], { env: { SCANCTL_PORT: 'abc' } });
    expect(viaEnv.code).toBe(2);
    const notDb = join(memory.dir, 'not.db');
    writeFileSync(notDb, 'x'.repeat(4096));
    const refused = await runCli(['serve', '--port', '0', '--db', notDb]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`scanctl: cannot open the database ${notDb}: file is not a database`);
    await memory.stop();
  });
});
