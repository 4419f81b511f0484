import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exeNodeVersion } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// The single executable (npm run build:exe) as a user without Node runs it: a PATH that holds no
// node, a cache folder of its own. The whole e2e project also runs against it: `npm run test:exe`.
const EXE = fileURLToPath(new URL('../../dist/exe/scanctl', import.meta.url));
if (!existsSync(EXE)) throw new Error('dist/exe/scanctl is not built: npm run build:exe (npm test builds it)');

/** A PATH folder with only what these tests run besides scanctl: no node anywhere on it. */
function pathWithoutNode(): string {
  const bin = tempDir('scanctl-exe-bin-');
  symlinkSync(EXE, join(bin, 'scanctl'));
  // Debian's own (a pyenv shim on PATH would need bash); a shell builtin such as `true` has a file too.
  for (const tool of ['/bin/sh', '/usr/bin/python3', '/usr/bin/true', '/usr/bin/cat']) {
    if (existsSync(tool)) symlinkSync(tool, join(bin, tool.split('/').at(-1)!));
  }
  return bin;
}

const ANSI = new RegExp(String.raw`\u001b\[[0-9;?]*[A-Za-z]`, 'g');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let bin: string;
let cache: string;
/** The environment of a machine with no Node: only `bin` on PATH, a fresh cache, no scanctl variables. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: bin, HOME: tempDir('scanctl-exe-home-'), XDG_CACHE_HOME: cache, TMPDIR: process.env.TMPDIR!, NO_COLOR: '1', ...extra };
}

function run(args: string[], extra: Record<string, string> = {}, cwd?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(EXE, args, { env: env(extra), cwd: cwd ?? tempDir('scanctl-exe-cwd-'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  bin = pathWithoutNode();
  cache = tempDir('scanctl-exe-cache-');
  expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: bin } }).status).not.toBe(0);
});

describe('the single executable, on a PATH without node', () => {
  it('--version says it is the executable and which Node it carries', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await run(['--version']);
    expect(result).toEqual({
      code: 0,
      stdout: `${pkg.version} (single executable, Node ${exeNodeVersion()}, ${process.platform}-${process.arch})\n`,
      stderr: '',
    });
  });

  it("carries a trained code cache that V8 takes (the build's training run)", async () => {
    const checked = await run(['clock', '--help'], { SCANCTL_EXE_CACHE_CHECK: '1' });
    expect(checked).toMatchObject({ code: 0, stderr: '' });
    expect(checked.stdout).toContain('Usage: scanctl clock');
    // Other heap sizes keep the cache (SCANCTL_NODE_FLAGS); V8 flags that change its code make V8
    // refuse it: the check says so, and without the check the command runs as ever, compiling.
    expect((await run(['clock', '--help'], { SCANCTL_NODE_FLAGS: '--max-semi-space-size=8', SCANCTL_EXE_CACHE_CHECK: '1' })).code).toBe(0);
    const noOpt = { NODE_OPTIONS: '--no-opt' };
    const refused = await run(['clock', '--help'], { ...noOpt, SCANCTL_EXE_CACHE_CHECK: '1' });
    expect(refused).toEqual({ code: 70, stdout: '', stderr: 'scanctl: V8 rejected the code cache\n' });
    expect(await run(['clock', '--help'], noOpt)).toEqual({ code: 0, stdout: checked.stdout, stderr: '' });
  });

  describe('serve, mint, a retried signed webhook, a stop', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver(DEMO.webhookSecret, (n) => (n === 1 ? 503 : 200));
    });
    afterAll(() => receiver.close());

    it('WH-4, WH-7, WH-9: serves from a database file, mints, and plays a delivery retried after a 503 to a verifying receiver', async () => {
      const dir = tempDir('scanctl-exe-serve-');
      const child = spawn(EXE, ['serve', '--port', '0', '--json', '--db', join(dir, 'e.db')], {
        env: env(),
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const ready = await new Promise<{ base_url: string; fixtures: string }>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
        child.once('exit', () => reject(new Error(`serve exited: ${stderr}`)));
      });
      try {
        // The fixtures come from the runtime folder the executable unpacked into its cache.
        expect(ready.fixtures.startsWith(join(cache, 'scanctl', 'exe'))).toBe(true);
        const minted = await fetch(`${ready.base_url}/v1/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
          body: '{"host_user_ref":"member_exe"}',
        });
        expect(minted.status).toBe(201);
        const base = { SCANCTL_BASE_URL: ready.base_url };
        expect((await run(['app', 'update', '--webhook-url', receiver.url], base)).code).toBe(0);
        const simulated = await run(['scan', 'simulate', '--user', 'member_exe', '--wait', '--play-retries', '--json'], base);
        expect(simulated.code, simulated.stderr).toBe(0);
        const wait = JSON.parse(simulated.stdout.trim().split('\n').at(-1)!);
        expect(wait).toMatchObject({ object: 'wait', ok: true, acknowledged: 1 });
        expect(wait.log[0].attempts.map((a: { status: number }) => a.status)).toEqual([503, 200]);
        expect(receiver.received.map((d) => d.signatureValid)).toEqual([true, true]);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    });
  });

  it('exec runs a Python test against a fresh emulator and exits with its code', async () => {
    const dir = tempDir('scanctl-exe-py-');
    writeFileSync(
      join(dir, 'test_mint.py'),
      [
        'import json, os, urllib.request',
        "req = urllib.request.Request(os.environ['SCANCTL_BASE_URL'] + '/v1/sessions', data=b'{\"host_user_ref\":\"py\"}', method='POST',",
        "  headers={'authorization': 'Bearer ' + os.environ['SCANCTL_SECRET_KEY'], 'content-type': 'application/json'})",
        'with urllib.request.urlopen(req) as res:',
        "    assert res.status == 201 and json.load(res)['session_token'].startswith('vst_')",
        "print('minted from python')",
      ].join('\n'),
    );
    const ok = await run(['exec', '--', 'python3', 'test_mint.py'], {}, dir);
    expect(ok, ok.stderr).toMatchObject({ code: 0, stdout: 'minted from python\n' });
    expect((await run(['exec', '--', 'python3', '-c', 'raise SystemExit(3)'], {}, dir)).code).toBe(3);
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    'webhook listen draws its Ink view on a terminal (its ES modules come from the runtime folder)',
    async () => {
      const dir = tempDir('scanctl-exe-tui-');
      const serve = spawn(EXE, ['serve', '--port', '0', '--json', '--db', ':memory:'], {
        env: env(),
        cwd: dir,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const served = new Promise<number | null>((resolve) => serve.once('exit', resolve));
      const ready = await new Promise<{ base_url: string }>((resolve) =>
        createInterface({ input: serve.stdout }).once('line', (l) => resolve(JSON.parse(l))),
      );
      try {
        // script(1) gives the command a terminal: the live view draws only on one.
        const command = `'${EXE}' webhook listen --forward http://127.0.0.1:9/hooks`;
        const view = spawn('/usr/bin/script', ['-qefc', command, '/dev/null'], {
          env: env({ SCANCTL_BASE_URL: ready.base_url, TERM: 'xterm', COLUMNS: '120', LINES: '30' }),
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let screen = '';
        const drawn = new Promise<void>((resolve) =>
          view.stdout.on('data', (chunk: Buffer) => {
            screen += chunk.toString('utf8').replace(ANSI, '');
            if (screen.includes('q quit')) resolve();
          }),
        );
        const quit = new Promise<number | null>((resolve) => view.once('exit', resolve));
        await drawn;
        expect(screen).toContain('scanctl webhook listen app_demo -> http://127.0.0.1:9/hooks');
        expect(screen).toContain('waiting for deliveries');
        view.stdin.write('q');
        expect(await quit).toBe(0);
        // The terminal shows stderr too: no warning of Node's over the view (the import() of its modules).
        expect(screen).not.toMatch(/Warning|\(node:\d+\)/);
      } finally {
        serve.kill('SIGTERM');
      }
      expect(await served).toBe(0);
    },
  );
});

describe('the runtime folder (the SQLite addon, fixtures, the Ink view)', () => {
  it('several executables starting at once on an empty cache each start, and leave one whole folder', async () => {
    const fresh = tempDir('scanctl-exe-race-');
    const results = await Promise.all(Array.from({ length: 6 }, () => run(['exec', '--', 'true'], { XDG_CACHE_HOME: fresh })));
    expect(results.map((r) => [r.code, r.stderr])).toEqual(results.map(() => [0, '']));
    const entries = readdirSync(join(fresh, 'scanctl', 'exe'));
    expect(entries).toHaveLength(1);
    expect(readdirSync(join(fresh, 'scanctl', 'exe', entries[0]!))).toContain('better_sqlite3.node');
  });

  it('falls back to TMPDIR when the cache folder cannot be written', async () => {
    const tmp = tempDir('scanctl-exe-tmp-');
    const result = await run(['exec', '--', 'true'], { XDG_CACHE_HOME: '/dev/null/cache', TMPDIR: tmp });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const uid = process.getuid?.() ?? 'user';
    expect(readdirSync(join(tmp, `scanctl-${uid}`, 'exe'))).toHaveLength(1);
  });

  it('neither writable: one line naming both, exit 1, nothing else', async () => {
    const result = await run(['exec', '--', 'true'], { XDG_CACHE_HOME: '/dev/null/cache', TMPDIR: '/dev/null/tmp' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^scanctl: cannot unpack its runtime files \(the SQLite addon, fixtures\) into \/dev\/null\/cache\/scanctl\/exe \(ENOTDIR\) or \/dev\/null\/tmp\/scanctl-\w+\/exe \(ENOTDIR\): make one writable, or set XDG_CACHE_HOME to a folder that is\n$/,
    );
  });

  it("a TMPDIR folder that others may write is refused: nobody else's addon is loaded", async () => {
    const tmp = tempDir('scanctl-exe-shared-');
    const uid = process.getuid?.() ?? 'user';
    mkdirSync(join(tmp, `scanctl-${uid}`, 'exe'), { recursive: true });
    chmodSync(join(tmp, `scanctl-${uid}`, 'exe'), 0o777);
    const result = await run(['exec', '--', 'true'], { XDG_CACHE_HOME: '/dev/null/cache', TMPDIR: tmp });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(tmp, `scanctl-${uid}`, 'exe')} (not owned by this user alone)`);
  });
});

describe("the executable's heap flags", () => {
  /** The arguments of a running process (Linux). */
  const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

  async function serveArgs(extra: Record<string, string>): Promise<string[]> {
    const dir = tempDir('scanctl-exe-flags-');
    const child = spawn(EXE, ['serve', '--port', '0', '--json', '--db', ':memory:'], {
      env: env(extra),
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const ready = await new Promise<{ pid: number }>((resolve) =>
      createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l))),
    );
    const args = cmdline(ready.pid);
    expect(ready.pid).toBe(child.pid);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    return args.slice(1);
  }

  it('start once with the flags in execArgv; NODE_OPTIONS and SCANCTL_NODE_FLAGS restart it once with theirs, which win', async () => {
    expect(await serveArgs({})).toEqual(['serve', '--port', '0', '--json', '--db', ':memory:']);
    expect((await serveArgs({ NODE_OPTIONS: '--max-old-space-size=2048' }))[0]).toBe('--node-options=--max-old-space-size=2048');
    expect((await serveArgs({ SCANCTL_NODE_FLAGS: '--max-semi-space-size=16' }))[0]).toBe(
      '--node-options=--max-semi-space-size=0 --max-old-space-size=0 --max-semi-space-size=16',
    );
    expect((await serveArgs({ SCANCTL_NODE_FLAGS: '' }))[0]).toBe('--node-options=--max-semi-space-size=0 --max-old-space-size=0');
  });

  it('the command exec runs keeps the NODE_OPTIONS it was given, and is not told about the restart', async () => {
    const result = await run(['exec', '--', 'sh', '-c', 'echo "$NODE_OPTIONS|${SCANCTL_EXE_NODE_OPTIONS_APPLIED:-unset}"'], {
      NODE_OPTIONS: '--max-old-space-size=2048',
    });
    expect(result).toMatchObject({ code: 0, stdout: '--max-old-space-size=2048|unset\n' });
  });
});
