import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startServe, type ServeProcess } from '../helpers/cli.js';

const DEMO_TEST_SECRET = 'sk_test_demoSecretKey00000000000001';
const DEMO_LIVE_SECRET = 'sk_live_demoSecretKey00000000000001';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const json = (stdout: string) => JSON.parse(stdout);

describe('scanctl without a server', () => {
  it('--version prints the package version and --help lists the core commands', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const version = await runCli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const word of ['serve', 'session', 'results', 'app', 'key', 'account', 'clock', '--base-url', '--app', '--json']) {
      expect(help.stdout).toContain(word);
    }
    const sub = await runCli(['session', 'mint', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--user <ref>');
    expect(sub.stdout).toContain('--key <key>');
  });

  it('a connection error exits 4 naming the URL and how to start the emulator', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    for (const args of [['session', 'mint', '--user', 'm'], ['results', 'delete', '--user', 'm', '--key', DEMO_TEST_SECRET], ['key', 'list'], ['clock', 'show']]) {
      const res = await runCli([...args, '--base-url', url]);
      expect(res.code, args.join(' ')).toBe(4);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(`could not reach ${url}`);
      expect(res.stderr).toContain('scanctl serve');
    }
    const viaEnv = await runCli(['clock', 'show'], { env: { SCANCTL_BASE_URL: url } });
    expect(viaEnv.code).toBe(4);
    expect(viaEnv.stderr).toContain(url);
  });

  it('usage errors exit 2', async () => {
    expect((await runCli(['session', 'mint'])).code).toBe(2);
    expect((await runCli(['nope'])).code).toBe(2);
    expect((await runCli(['clock', 'advance', 'soon', '--base-url', 'http://127.0.0.1:9'])).code).toBe(2);
    expect((await runCli(['key', 'create', '--env', 'prod'])).code).toBe(2);
    const badUrl = await runCli(['clock', 'show', '--base-url', 'ftp://x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^scanctl: --base-url must be an http\(s\) URL/);
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

  it('serve --json: the first stdout line is the ready event', () => {
    expect(serve.ready).toMatchObject({
      event: 'ready',
      app_id: 'app_demo',
      test_secret_key: DEMO_TEST_SECRET,
      db: serve.db,
    });
    expect(serve.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(readFileSync(join(serve.dir, '.scanctl/serve.json'), 'utf8'))).toMatchObject({ base_url: serve.baseUrl, pid: serve.child.pid });
  });

  it('session mint: human and --json, default key, --key, SCANCTL_SECRET_KEY, --scope', async () => {
    const human = await cli(['session', 'mint', '--user', 'member_1']);
    expect(human.code).toBe(0);
    expect(human.stderr).toBe('');
    expect(human.stdout).toMatch(/^session_token {2}vst_\w+\nexpires_at {5}\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    const machine = await cli(['session', 'mint', '--user', 'member_1', '--json', '--key', DEMO_LIVE_SECRET, '--scope', 'scan.create']);
    expect(machine.code).toBe(0);
    const body = json(machine.stdout);
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'session_token']);
    expect(body.session_token).toMatch(/^vst_/);
    const viaEnv = await cli(['session', 'mint', '--user', 'm', '--json'], { SCANCTL_SECRET_KEY: 'pk_test_demoPublishableKey000000001' });
    expect(viaEnv.code).toBe(3);
    expect(viaEnv.stdout).toBe('');
    expect(viaEnv.stderr).toContain('401 authentication_error publishable_key_used');
    const badScope = await cli(['session', 'mint', '--user', 'm', '--scope', 'scan.read']);
    expect(badScope.code).toBe(3);
    expect(badScope.stderr).toMatch(/400 invalid_request_error parameter_invalid: .*\(param: scopes\[0\]\)/);
    // In the serve's own folder the CLI finds it without --base-url.
    const local = await runCli(['session', 'mint', '--user', 'm', '--json'], { cwd: serve.dir });
    expect(local.code).toBe(0);
    expect(json(local.stdout).session_token).toMatch(/^vst_/);
  });

  it('results delete: human and --json', async () => {
    const human = await cli(['results', 'delete', '--user', 'member_1']);
    expect(human).toMatchObject({ code: 0, stdout: 'deleted 0 stored results of member_1\n', stderr: '' });
    const machine = await cli(['results', 'delete', '--user', 'member_1', '--json']);
    expect(json(machine.stdout)).toEqual({ host_user_ref: 'member_1', deleted: 0 });
    const bad = await cli(['results', 'delete', '--user', 'member_1', '--key', 'sk_test_nope']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('401 authentication_error invalid_api_key');
  });

  it('app show and app update (the portal PATCH): human and --json; the trial app gets its signing secret once', async () => {
    const show = await cli(['app', 'show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^id {19}app_demo$/m);
    expect(show.stdout).toMatch(/^results delivery +off$/m);
    const shown = json((await cli(['app', 'show', '--json'])).stdout);
    expect(shown).toMatchObject({ id: 'app_demo', object: 'app', results_delivery_enabled: false, webhook_secret_hint: 'whsec_...0001' });

    const update = await cli(['app', 'update', '--webhook-url', 'https://example.test/hooks', '--results-delivery', 'on', '--json']);
    expect(update.code).toBe(0);
    const updated = json(update.stdout);
    expect(updated).toMatchObject({ webhook_url: 'https://example.test/hooks', results_delivery_enabled: true });
    expect(updated.webhook_secret).toBeUndefined();
    const off = await cli(['app', 'update', '--results-delivery', 'off', '--webhook-url', 'none']);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/^results delivery +off$/m);

    const first = await cli(['app', 'update', '--app', 'app_trial', '--webhook-url', 'http://127.0.0.1:9/hook']);
    expect(first.code).toBe(0);
    const secret = /NEW signing secret\s+(whsec_\w+)/.exec(first.stdout)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const second = await cli(['app', 'update', '--app', 'app_trial', '--webhook-url', 'http://127.0.0.1:9/other', '--json']);
    expect(json(second.stdout).webhook_secret).toBeUndefined();
    expect(second.stdout).not.toContain(secret!);

    const nothing = await cli(['app', 'update']);
    expect(nothing.code).toBe(2);
    const badUrl = await cli(['app', 'update', '--webhook-url', 'not-a-url']);
    expect(badUrl.code).toBe(3);
    expect(badUrl.stderr).toContain('(param: webhook_url)');
    const missing = await cli(['app', 'show', '--app', 'app_nope']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('404 invalid_request_error resource_missing');
  });

  it('key list, create, suspend, reinstate, revoke: human and --json; a new secret is shown once and never stored', async () => {
    const list = await cli(['key', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+ENV\s+KIND\s+KEY\s+STATE$/m);
    expect(list.stdout).toContain('sk_test_...0001');
    expect(list.stdout).not.toContain(DEMO_TEST_SECRET);
    const live = json((await cli(['key', 'list', '--env', 'live', '--json'])).stdout);
    expect(live.data.map((k: { env: string }) => k.env)).toEqual(['live', 'live']);

    const exists = await cli(['key', 'create']);
    expect(exists.code).toBe(3);
    expect(exists.stderr).toContain('409 invalid_request_error key_exists');
    const notAllowed = await cli(['key', 'create', '--env', 'live', '--app', 'app_trial']);
    expect(notAllowed.code).toBe(3);
    expect(notAllowed.stderr).toContain('403 permission_error live_keys_not_allowed');

    const suspend = await cli(['key', 'suspend', '--env', 'live']);
    expect(suspend.code).toBe(0);
    expect(suspend.stdout).toMatch(/live\s+secret\s+sk_live_\.\.\.0001\s+suspended/);
    const refused = await cli(['session', 'mint', '--user', 'm', '--key', DEMO_LIVE_SECRET]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('403 permission_error key_suspended');
    const reinstate = await cli(['key', 'reinstate', '--env', 'live', '--json']);
    expect(json(reinstate.stdout)).toMatchObject({ env: 'live', kind: 'secret', state: 'active' });

    const revoke = await cli(['key', 'revoke', '--app', 'app_trial', '--json']);
    expect(revoke.code).toBe(0);
    expect(json(revoke.stdout).state).toBe('revoked');
    const created = await cli(['key', 'create', '--app', 'app_trial']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('The secret key is shown once: store it now.');
    const secret = /(sk_test_[A-Za-z0-9]{16,})/.exec(created.stdout)![1]!;
    const publishable = /(pk_test_[A-Za-z0-9]{16,})/.exec(created.stdout)![1]!;
    expect((await cli(['session', 'mint', '--user', 'm', '--key', secret])).code).toBe(0);
    const after = await cli(['key', 'list', '--app', 'app_trial', '--json']);
    expect(after.stdout).not.toContain(secret);
    expect(after.stdout).toContain(`sk_test_...${secret.slice(-4)}`);
    expect(after.stdout).toContain(publishable);
    // AUTH-11: not in the database file nor its WAL.
    for (const file of [serve.db, `${serve.db}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(secret.slice(8))), file).toBe(false);
    }
  });

  it('account suspend and reinstate: human and --json', async () => {
    const suspend = await cli(['account', 'suspend']);
    expect(suspend.code).toBe(0);
    expect(suspend.stdout).toMatch(/^acct_demo is suspended since \d{4}-/);
    const refused = await cli(['session', 'mint', '--user', 'm']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('403 permission_error account_suspended');
    const reinstate = await cli(['account', 'reinstate', 'acct_demo', '--json']);
    expect(json(reinstate.stdout)).toEqual({ id: 'acct_demo', object: 'account', suspended: false, suspended_at: null });
    expect((await cli(['session', 'mint', '--user', 'm'])).code).toBe(0);
  });

  it('clock show, advance, set: human and --json; it never goes back', async () => {
    const before = json((await cli(['clock', 'show', '--json'])).stdout);
    expect(before).toMatchObject({ object: 'clock' });
    const advanced = json((await cli(['clock', 'advance', '90m', '--json'])).stdout);
    expect(advanced.offset_ms - before.offset_ms).toBe(90 * 60_000);
    const human = await cli(['clock', 'advance', '1h30m']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}\(real time \+ 3h\)\n$/);
    const set = await cli(['clock', 'set', '2099-01-01T00:00:00Z', '--json']);
    // The virtual clock keeps running with real time after the move.
    const drift = Date.parse(json(set.stdout).now) - Date.parse('2099-01-01T00:00:00Z');
    expect(drift).toBeGreaterThanOrEqual(0);
    expect(drift).toBeLessThan(1000);
    const back = await cli(['clock', 'set', '2030-01-01T00:00:00Z']);
    expect(back.code).toBe(3);
    expect(back.stderr).toContain('clock_backwards');
    expect((await cli(['clock', 'set', 'whenever'])).code).toBe(2);
    const shown = await cli(['clock', 'show']);
    expect(shown.stdout).toMatch(/^2099-01-01T00:00:\d\d\.\d{3}Z/);
  });

  it('AUTH-8: a key rotated with the CLI, then clock advance 25h, gets key_revoked through the CLI', async () => {
    const rotated = await cli(['key', 'rotate', '--json']);
    expect(rotated.code).toBe(0);
    const [replacement, previous] = json(rotated.stdout).data;
    expect(previous).toMatchObject({ display: 'sk_test_...0001', state: 'rotating' });
    expect(replacement.secret).toMatch(/^sk_test_/);
    // The default key (the fixture's) still works during the grace period.
    expect((await cli(['session', 'mint', '--user', 'm'])).code).toBe(0);
    expect((await cli(['clock', 'advance', '25h'])).code).toBe(0);
    const revoked = await cli(['session', 'mint', '--user', 'm']);
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toMatch(/^scanctl: POST \/v1\/sessions failed: 403 permission_error key_revoked: .*grace period has ended/);
    const replacementWorks = await cli(['session', 'mint', '--user', 'm', '--json'], { SCANCTL_SECRET_KEY: replacement.secret });
    expect(replacementWorks.code).toBe(0);
    const list = await cli(['key', 'list']);
    expect(list.stdout).toMatch(/sk_test_\.\.\.0001\s+revoked/);
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
    const t0 = Date.now();
    const second = await runCli(['serve', '--port', '0', '--json', '--db', first.db], { cwd: first.dir });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(second.code).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr).toContain(`scanctl: the database ${first.db} is in use by another scanctl serve (pid ${first.child.pid}, ${first.baseUrl})`);
    expect(second.stderr).toContain('hint:');
    const mint = await runCli(['session', 'mint', '--user', 'm', '--base-url', first.baseUrl]);
    expect(mint.code).toBe(0);
    expect(JSON.parse(readFileSync(join(first.dir, '.scanctl/serve.json'), 'utf8')).pid).toBe(first.child.pid);
  });

  it('SIGTERM exits 0 and removes .scanctl/serve.json', async () => {
    const serve = await start();
    const stateFile = join(serve.dir, '.scanctl/serve.json');
    expect(existsSync(stateFile)).toBe(true);
    const t0 = Date.now();
    expect(await serve.stop()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(existsSync(stateFile)).toBe(false);
  });

  it('SIGINT exits 0 and removes .scanctl/serve.json (human output)', async () => {
    const serve = await start();
    await serve.stop();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', serve.db], {
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
    const bad = await runCli(['serve', '--port', '0', '--json', '--db', first.db, '--fixtures', file], { cwd: first.dir });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(`scanctl: invalid fixtures: ${file}: apps[1].team_id: must be exactly 10 characters\n`);
    const notJson = join(first.dir, 'broken.json');
    writeFileSync(notJson, '{');
    const broken = await runCli(['serve', '--port', '0', '--db', ':memory:', '--fixtures', notJson], { cwd: first.dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${notJson}: not valid JSON`);
    const missing = await runCli(['serve', '--port', '0', '--db', ':memory:', '--fixtures', join(first.dir, 'nope.json')], { cwd: first.dir });
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
    expect(memory.ready).toMatchObject({ event: 'ready', db: ':memory:' });
    const port = Number(new URL(memory.baseUrl).port);
    const busy = await runCli(['serve', '--port', String(port), '--db', ':memory:']);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    const badPort = await runCli(['serve', '--port', '70000', '--db', ':memory:']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port must be a whole number from 0 to 65535');
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
