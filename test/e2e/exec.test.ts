import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, scanctlArgv, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';

const dir = mkdtempSync(join(tmpdir(), 'scanctl-exec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A node one-liner as exec's command. */
const node = (code: string) => [process.execPath, '-e', code];
const exec = (args: string[]) => runCli(['exec', ...args], { cwd: dir });

describe('scanctl exec -- COMMAND', () => {
  it('runs the command against a fresh emulator whose address and keys are in its environment, and exits with its code', async () => {
    const script = `
      const env = process.env;
      const minted = await fetch(env.SCANCTL_BASE_URL + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + env.SCANCTL_SECRET_KEY, 'content-type': 'application/json' }, body: '{"host_user_ref":"m"}' });
      console.log(JSON.stringify({ status: minted.status, app: env.SCANCTL_APP_ID, pk: env.SCANCTL_PUBLISHABLE_KEY, wh: env.SCANCTL_WEBHOOK_SECRET, base: env.SCANCTL_BASE_URL }));
      process.exit(7);`;
    const result = await exec(['--', process.execPath, '--input-type=module', '-e', script]);
    expect(result.code).toBe(7);
    const out = JSON.parse(result.stdout);
    expect(out).toMatchObject({ status: 201, app: DEMO.appId, pk: DEMO.testPublishable, wh: DEMO.webhookSecret });
    expect(out.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The emulator stopped with the command.
    await expect(fetch(`${out.base}/_scanctl`)).rejects.toThrow();
  });

  it('CHOICE-2: no rate limit by default, as startEmulator (150 mints in one frozen second: no 429); --rate-limit 100 turns it on', async () => {
    const script = `
      const env = process.env;
      const mint = () => fetch(env.SCANCTL_BASE_URL + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + env.SCANCTL_SECRET_KEY, 'content-type': 'application/json' }, body: '{"host_user_ref":"m"}' });
      const statuses = [];
      for (let i = 0; i < 150; i++) statuses.push((await mint()).status);
      console.log(statuses.filter((s) => s === 429).length);`;
    const command = ['--', process.execPath, '--input-type=module', '-e', script];
    const unlimited = await exec(['--frozen-clock', ...command]);
    expect(unlimited).toMatchObject({ code: 0, stdout: '0\n' });
    const limited = await exec(['--frozen-clock', '--rate-limit', '100', ...command]);
    expect(limited).toMatchObject({ code: 0, stdout: '50\n' });
  });

  it('the example of exec --help repeats byte for byte: it fixes the seed, the clock start and freezes the clock', async () => {
    const help = await runCli(['exec', '--help']);
    const example = /scanctl exec (.*) -- npm test/.exec(help.stdout)![1]!.split(' ');
    expect(example).toEqual(['--seed', '1', '--clock-start', '2026-01-01T00:00:00Z', '--frozen-clock']);
    const script = `
      const env = process.env;
      const minted = await fetch(env.SCANCTL_BASE_URL + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + env.SCANCTL_SECRET_KEY, 'content-type': 'application/json' }, body: '{"host_user_ref":"m"}' });
      console.log(await minted.text());`;
    const runs = await Promise.all([1, 2].map(() => exec([...example, '--', process.execPath, '--input-type=module', '-e', script])));
    expect(runs[0]!.stdout).toContain('"session_token"');
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
  });

  it.runIf(process.platform === 'linux')(
    'what exec --help says holds: no readiness wait (the first request, sent at once, is answered), and the emulator listens in the scanctl process, the parent of the command',
    async () => {
      const help = await runCli(['exec', '--help']);
      expect(help.stdout).toContain('The emulator runs inside this scanctl process, not a process of its own; the command is its child.');
      expect(help.stdout).toMatch(/No readiness wait is needed: the port listens before the command starts/);
      // Linux: the listening socket of SCANCTL_BASE_URL's port is one of the parent's file descriptors.
      const script = `
        const fs = await import('node:fs');
        const url = process.env.SCANCTL_BASE_URL;
        const health = await fetch(url + '/_scanctl/health');
        const port = Number(new URL(url).port).toString(16).toUpperCase().padStart(4, '0');
        const listening = fs.readFileSync('/proc/net/tcp', 'utf8').split('\\n').map((l) => l.trim().split(/\\s+/))
          .find((f) => f[1]?.endsWith(':' + port) && f[3] === '0A');
        const fds = fs.readdirSync('/proc/' + process.ppid + '/fd').map((fd) => { try { return fs.readlinkSync('/proc/' + process.ppid + '/fd/' + fd); } catch { return ''; } });
        console.log(JSON.stringify({ status: health.status, parentListens: fds.includes('socket:[' + listening[9] + ']') }));`;
      for (const args of [[], ['--db', join(dir, 'ready-first.db')]]) {
        const result = await exec([...args, '--', process.execPath, '--input-type=module', '-e', script]);
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout), args.join(' ')).toEqual({ status: 200, parentListens: true });
      }
    },
  );

  it('a command ended by a signal gives 128 + its number; one not found gives 127', async () => {
    expect((await exec(['--', ...node('process.kill(process.pid, "SIGTERM")')])).code).toBe(143);
    const missing = await exec(['--', 'scanctl-no-such-command']);
    expect(missing.code).toBe(127);
    expect(missing.stderr.trim()).toBe('scanctl: exec: scanctl-no-such-command: command not found');
  });

  it('a command that cannot be started (a symlink loop: spawn throws at once) is one line, exit 2, and scanctl ends', async () => {
    symlinkSync('loop', join(dir, 'loop'));
    const result = await exec(['--', join(dir, 'loop')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`scanctl: exec: cannot run ${join(dir, 'loop')}: spawn ELOOP\n`);
  });

  it('passes SIGTERM on to the command and exits as it does', async () => {
    const child = spawn(
      ...scanctlArgv([
        'exec',
        '--',
        ...node(
          "process.on('SIGTERM', () => { console.log('got SIGTERM'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000);",
        ),
      ]),
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (line === 'ready') resolve();
      }),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines).toContain('got SIGTERM');
  });

  it('bad input: one line, exit 2, and nothing started (the command never ran, no state written)', async () => {
    const marker = join(dir, 'ran');
    const exported = join(dir, 'never.json');
    const command = ['--', ...node(`require('fs').writeFileSync(${JSON.stringify(marker)}, '')`)];
    const notState = join(dir, 'not-state.json');
    await runCli(['exec', '--', ...node(`require('fs').writeFileSync(${JSON.stringify(notState)}, '{"tables":{}}')`)], { cwd: dir });
    const cases: Array<[string[], RegExp]> = [
      [['--bogus', ...command], /unknown option '--bogus'/],
      // The command's own option read as exec's (no --): say where the -- goes.
      [
        node('1'),
        /^scanctl: unknown option '-e' \(an option of the command\? put -- before it: scanctl exec \[options\] -- COMMAND \[ARGS\.\.\.\]\)/,
      ],
      [['--export-on-exit', exported, '--'], /needs a command after --/],
      [['--import', notState, '--export-on-exit', exported, ...command], /is not a scanctl state export \(format: /],
      [['--seed', 'ten', ...command], /--seed <n>' argument 'ten' is invalid/],
      [['--seed', '-1', ...command], /--seed|unknown option/],
      [['--clock-start', 'next monday', ...command], /--clock-start <time>' argument 'next monday' is invalid/],
      [['--forward', 'not a url', ...command], /--forward <url>' argument 'not a url' is invalid\. Expected an http\(s\) URL/],
    ];
    for (const [args, message] of cases) {
      const result = await exec(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(exported)).toBe(false);
  });

  it('--forward points the app at a URL; --export-on-exit and --import carry the state from one run to the next', async () => {
    const file = join(dir, 'state.json');
    const first = await exec([
      '--seed',
      '5',
      '--forward',
      'http://127.0.0.1:9/hooks',
      '--export-on-exit',
      file,
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      `const app = await (await fetch(process.env.SCANCTL_BASE_URL + '/_scanctl/apps/app_demo')).json(); console.log(app.webhook_url);
       await fetch(process.env.SCANCTL_BASE_URL + '/v1/sessions', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.SCANCTL_SECRET_KEY, 'content-type': 'application/json' }, body: '{"host_user_ref":"carried"}' });`,
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe('http://127.0.0.1:9/hooks');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.tables.sessions.map((s: { host_user_ref: string }) => s.host_user_ref)).toEqual(['carried']);
    expect(state.includes_secrets).toBe(true);

    const second = await exec(['--import', file, '--', ...scanctlArgv(['state', 'export', '-']).flat()]);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).tables.sessions.map((s: { host_user_ref: string }) => s.host_user_ref)).toEqual(['carried']);
  });
});

describe('serve --export-on-exit and --import', () => {
  it('serve writes its state when stopped with SIGTERM, and another serve starts from it', async () => {
    const file = join(dir, 'serve-state.json');
    const first = await startServe(['--export-on-exit', file, '--frozen-clock', '--clock-start', '2026-05-01T00:00:00Z'], {
      db: ':memory:',
    });
    await runCli(['session', 'mint', '--user', 'kept'], { env: { SCANCTL_BASE_URL: first.baseUrl } });
    expect(await first.stop()).toBe(0);
    rmSync(first.dir, { recursive: true, force: true });
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.tables.sessions).toHaveLength(1);

    const second = await startServe(['--import', file], { db: ':memory:' });
    try {
      const exported = await runCli(['state', 'export', '-'], { env: { SCANCTL_BASE_URL: second.baseUrl } });
      expect(JSON.parse(exported.stdout).tables.sessions.map((s: { host_user_ref: string }) => s.host_user_ref)).toEqual(['kept']);
    } finally {
      await second.stop();
      rmSync(second.dir, { recursive: true, force: true });
    }
  });
});
