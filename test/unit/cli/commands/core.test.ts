import { describe, expect, it } from 'vitest';
import { renderClock } from '../../../../src/cli/commands/clock/render.js';
import { runCommand } from '../../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../../helpers/emulator.js';

const json = (stdout: string) => JSON.parse(stdout);

/** The core commands, in-process against an emulator's app.request (no socket, no spawn). */
describe('scanctl core commands (in-process)', () => {
  it('--help lists the core commands and the global options; subcommand help lists its own', async () => {
    const help = await runCommand(['--help']);
    expect(help.code).toBe(0);
    for (const word of ['serve', 'session', 'results', 'app', 'key', 'account', 'clock', '--base-url', '--app', '--json']) {
      expect(help.stdout).toContain(word);
    }
    const sub = await runCommand(['session', 'mint', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--user <ref>');
    expect(sub.stdout).toContain('--key <key>');
  });

  it('a connection error exits 4 naming the URL and how to start the emulator', async () => {
    const url = 'http://127.0.0.1:9';
    for (const args of [
      ['session', 'mint', '--user', 'm'],
      ['results', 'delete', '--user', 'm', '--key', DEMO.testSecret],
      ['key', 'list'],
      ['clock', 'show'],
    ]) {
      const res = await runCommand([...args, '--base-url', url]);
      expect(res.code, args.join(' ')).toBe(4);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(`could not reach ${url}`);
      expect(res.stderr).toContain('scanctl serve');
    }
    const viaEnv = await runCommand(['clock', 'show'], { env: { SCANCTL_BASE_URL: url } });
    expect(viaEnv.code).toBe(4);
    expect(viaEnv.stderr).toContain(url);
  });

  it('a typo is answered with the command it resembles', async () => {
    const typo = await runCommand(['serv']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('serve');
  });

  it('usage errors exit 2', async () => {
    expect((await runCommand(['session', 'mint'])).code).toBe(2);
    expect((await runCommand(['nope'])).code).toBe(2);
    expect((await runCommand(['clock', 'advance', 'soon', '--base-url', 'http://127.0.0.1:9'])).code).toBe(2);
    expect((await runCommand(['key', 'create', '--env', 'prod'])).code).toBe(2);
    const badUrl = await runCommand(['clock', 'show', '--base-url', 'ftp://x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^scanctl: option '--base-url <url>' argument 'ftp:\/\/x' is invalid\. Expected an http\(s\) URL/);
    const badEnv = await runCommand(['clock', 'show'], { env: { SCANCTL_BASE_URL: 'ftp://x' } });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toMatch(/^scanctl: --base-url must be an http\(s\) URL/);
  });

  it('session mint: human and --json, default key, --key, SCANCTL_SECRET_KEY, --scope', async () => {
    const emulator = testEmulator();
    const cli = (args: string[], env?: Record<string, string>) => runCommand(args, { emulator, env });
    const human = await cli(['session', 'mint', '--user', 'member_1']);
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toMatch(/^session_token {2}vst_\w+\nexpires_at {5}2026-11-22T10:15:00\.000Z\n$/);
    const machine = await cli(['session', 'mint', '--user', 'member_1', '--json', '--key', DEMO.liveSecret, '--scope', 'scan.create']);
    expect(machine.code).toBe(0);
    expect(Object.keys(json(machine.stdout)).sort()).toEqual(['expires_at', 'session_token']);
    const viaEnv = await cli(['session', 'mint', '--user', 'm'], { SCANCTL_SECRET_KEY: DEMO.testPublishable });
    expect(viaEnv).toMatchObject({ code: 3, stdout: '' });
    expect(viaEnv.stderr).toContain('401 authentication_error publishable_key_used');
    const badScope = await cli(['session', 'mint', '--user', 'm', '--scope', 'scan.read']);
    expect(badScope.code).toBe(3);
    expect(badScope.stderr).toMatch(/400 invalid_request_error parameter_invalid: .*\(param: scopes\[0\]\)/);
  });

  it('results delete: human and --json', async () => {
    const emulator = testEmulator();
    const human = await runCommand(['results', 'delete', '--user', 'member_1'], { emulator });
    expect(human).toMatchObject({ code: 0, stdout: 'deleted 0 stored results of member_1\n', stderr: '' });
    const machine = await runCommand(['results', 'delete', '--user', 'member_1', '--json'], { emulator });
    expect(json(machine.stdout)).toEqual({ host_user_ref: 'member_1', deleted: 0 });
    const bad = await runCommand(['results', 'delete', '--user', 'member_1', '--key', 'sk_test_nope'], { emulator });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('401 authentication_error invalid_api_key');
  });

  it('app show and app update (the portal PATCH): human and --json; the trial app gets its signing secret once', async () => {
    const emulator = testEmulator();
    const cli = (...args: string[]) => runCommand(args, { emulator });
    const show = await cli('app', 'show');
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^id {19}app_demo$/m);
    expect(show.stdout).toMatch(/^results delivery +off$/m);
    expect(json((await cli('app', 'show', '--json')).stdout)).toMatchObject({
      id: 'app_demo',
      object: 'app',
      webhook_secret_hint: 'whsec_...0001',
    });

    const updated = json(
      (await cli('app', 'update', '--webhook-url', 'https://example.test/hooks', '--results-delivery', 'on', '--json')).stdout,
    );
    expect(updated).toMatchObject({ webhook_url: 'https://example.test/hooks', results_delivery_enabled: true });
    expect(updated.webhook_secret).toBeUndefined();
    const off = await cli('app', 'update', '--results-delivery', 'off', '--webhook-url', 'none');
    expect(off.stdout).toMatch(/^results delivery +off$/m);

    const first = await cli('app', 'update', '--app', 'app_trial', '--webhook-url', 'http://127.0.0.1:9/hook');
    const secret = /NEW signing secret\s+(whsec_\w+)/.exec(first.stdout)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const second = await cli('app', 'update', '--app', 'app_trial', '--webhook-url', 'http://127.0.0.1:9/other', '--json');
    expect(json(second.stdout).webhook_secret).toBeUndefined();
    expect(second.stdout).not.toContain(secret!);

    expect((await cli('app', 'update')).code).toBe(2);
    const missing = await cli('app', 'show', '--app', 'app_nope');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('404 invalid_request_error resource_missing');
  });

  it('key list, create, suspend, reinstate, revoke: human and --json; a new secret is shown once', async () => {
    const emulator = testEmulator();
    const cli = (...args: string[]) => runCommand(args, { emulator });
    const list = await cli('key', 'list');
    expect(list.stdout).toMatch(/^ID\s+ENV\s+KIND\s+KEY\s+STATE$/m);
    expect(list.stdout).toContain('sk_test_...0001');
    expect(list.stdout).not.toContain(DEMO.testSecret);
    expect(json((await cli('key', 'list', '--env', 'live', '--json')).stdout).data.map((k: { env: string }) => k.env)).toEqual([
      'live',
      'live',
    ]);

    const exists = await cli('key', 'create');
    expect(exists.code).toBe(3);
    expect(exists.stderr).toContain('409 invalid_request_error key_exists');
    expect((await cli('key', 'create', '--env', 'live', '--app', 'app_trial')).stderr).toContain(
      '403 permission_error live_keys_not_allowed',
    );

    expect((await cli('key', 'suspend', '--env', 'live')).stdout).toMatch(/live\s+secret\s+sk_live_\.\.\.0001\s+suspended/);
    expect((await cli('session', 'mint', '--user', 'm', '--key', DEMO.liveSecret)).stderr).toContain('403 permission_error key_suspended');
    expect(json((await cli('key', 'reinstate', '--env', 'live', '--json')).stdout)).toMatchObject({
      env: 'live',
      kind: 'secret',
      state: 'active',
    });

    expect(json((await cli('key', 'revoke', '--app', 'app_trial', '--json')).stdout).state).toBe('revoked');
    const created = await cli('key', 'create', '--app', 'app_trial');
    expect(created.stdout).toContain('The secret key is shown once: store it now.');
    const secret = /(sk_test_[A-Za-z0-9]{16,})/.exec(created.stdout)![1]!;
    expect((await cli('session', 'mint', '--user', 'm', '--key', secret)).code).toBe(0);
    const after = await cli('key', 'list', '--app', 'app_trial', '--json');
    expect(after.stdout).not.toContain(secret);
    expect(after.stdout).toContain(`sk_test_...${secret.slice(-4)}`);
  });

  it('account suspend and reinstate: human and --json', async () => {
    const emulator = testEmulator();
    const cli = (...args: string[]) => runCommand(args, { emulator });
    expect((await cli('account', 'suspend')).stdout).toMatch(/^acct_demo is suspended since 2026-11-22T10:00:00\.000Z/);
    expect((await cli('session', 'mint', '--user', 'm')).stderr).toContain('403 permission_error account_suspended');
    expect(json((await cli('account', 'reinstate', 'acct_demo', '--json')).stdout)).toEqual({
      id: 'acct_demo',
      object: 'account',
      suspended: false,
      suspended_at: null,
    });
    expect((await cli('session', 'mint', '--user', 'm')).code).toBe(0);
  });

  it('clock show, advance, set: human and --json; it never goes back', async () => {
    const emulator = testEmulator();
    const cli = (...args: string[]) => runCommand(args, { emulator });
    const before = json((await cli('clock', 'show', '--json')).stdout);
    expect(before).toMatchObject({ object: 'clock', now: '2026-11-22T10:00:00.000Z' });
    const advanced = json((await cli('clock', 'advance', '90m', '--json')).stdout);
    expect(advanced.now).toBe('2026-11-22T11:30:00.000Z');
    const human = await cli('clock', 'advance', '1h30m');
    expect(human.stdout).toMatch(/^2026-11-22T13:00:00\.000Z {2}\(real time( [+-] \S+)?\)\n$/);
    expect(json((await cli('clock', 'set', '2099-01-01T00:00:00Z', '--json')).stdout).now).toBe('2099-01-01T00:00:00.000Z');
    const back = await cli('clock', 'set', '2030-01-01T00:00:00Z');
    expect(back.code).toBe(3);
    expect(back.stderr).toContain('clock_backwards');
    expect((await cli('clock', 'set', 'whenever')).code).toBe(2);
  });

  it('clock show says how far the clock is from real time, ahead or behind (a frozen or --clock-start clock has its own base)', () => {
    const real = Date.parse('2026-11-24T00:00:00.000Z');
    const at = (now: string, offset_ms: number, played?: number) => renderClock({ object: 'clock', now, offset_ms, played }, real);
    expect(at('2026-11-25T00:00:30.000Z', 86_430_000, 1)).toBe('2026-11-25T00:00:30.000Z  (real time + 1d30s; played 1 due moment)');
    expect(at('2026-03-10T09:00:00.000Z', 0)).toBe('2026-03-10T09:00:00.000Z  (real time - 258d15h)');
    expect(at('2026-03-10T09:01:00.000Z', -22_345_140_000)).toBe('2026-03-10T09:01:00.000Z  (real time - 258d14h59m)');
    expect(at('2026-11-24T00:00:00.004Z', 0)).toBe('2026-11-24T00:00:00.004Z  (real time)');
  });

  it('AUTH-8: a key rotated with the CLI, then clock advance 25h, gets key_revoked through the CLI', async () => {
    const emulator = testEmulator();
    const cli = (args: string[], env?: Record<string, string>) => runCommand(args, { emulator, env });
    const [replacement, previous] = json((await cli(['key', 'rotate', '--json'])).stdout).data;
    expect(previous).toMatchObject({ display: 'sk_test_...0001', state: 'rotating' });
    expect(replacement.secret).toMatch(/^sk_test_/);
    expect((await cli(['session', 'mint', '--user', 'm'])).code).toBe(0);
    expect((await cli(['clock', 'advance', '25h'])).code).toBe(0);
    const revoked = await cli(['session', 'mint', '--user', 'm']);
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toMatch(/^scanctl: POST \/v1\/sessions failed: 403 permission_error key_revoked: .*grace period has ended/);
    expect((await cli(['session', 'mint', '--user', 'm'], { SCANCTL_SECRET_KEY: replacement.secret })).code).toBe(0);
    expect((await cli(['key', 'list'])).stdout).toMatch(/sk_test_\.\.\.0001\s+revoked/);
  });
});
