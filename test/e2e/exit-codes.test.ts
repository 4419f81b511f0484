import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, startServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * No crash at exit, on any Node line CI runs: a native addon torn down in the wrong order kills
 * the process by a signal after the command is done (its code comes back null). Each ending is
 * played many times because such a crash comes and goes with the collector's timing.
 */
const RUNS = 10;
/**
 * Each test starts 10-20 processes: ~1 s each beside the rest of the suite on 2 cores (CI saw the
 * SIGTERM/SIGINT one take 22 s), so the default 30 s would fail a slow run, not a crash.
 */
const LOOP_TIMEOUT_MS = 120_000;
const dir = tempDir('scanctl-exit-');

describe(`every way a command ends gives its exit code (${RUNS} times each, Node ${process.version})`, { timeout: LOOP_TIMEOUT_MS }, () => {
  it('serve stopped by SIGTERM exits 0, and by SIGINT exits 0, every time', async () => {
    const codes: Array<[string, number | null, string | null]> = [];
    for (let i = 0; i < RUNS; i++) {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const serve = await startServe([], { db: ':memory:' });
        // The emulator holds statements and a database open: the teardown that once crashed.
        expect(
          (
            await fetch(`${serve.baseUrl}/v1/sessions`, {
              method: 'POST',
              headers: { authorization: 'Bearer sk_test_demoSecretKey00000000000001', 'content-type': 'application/json' },
              body: '{"host_user_ref":"m"}',
            })
          ).status,
        ).toBe(201);
        const exited = new Promise<[number | null, string | null]>((resolve) =>
          serve.child.once('exit', (code, sig) => resolve([code, sig])),
        );
        serve.child.kill(signal);
        const [code, by] = await exited;
        codes.push([signal, code, by]);
      }
    }
    expect(codes).toEqual(
      Array.from({ length: RUNS }, () => [
        ['SIGTERM', 0, null],
        ['SIGINT', 0, null],
      ]).flat(),
    );
  });

  it('exec gives the exit code of its command: 7 from a command that exits 7, every time', async () => {
    const codes: Array<number | null> = [];
    for (let i = 0; i < RUNS; i++) {
      codes.push((await runCli(['exec', '--', process.execPath, '-e', 'process.exit(7)'], { cwd: dir })).code);
    }
    expect(codes).toEqual(Array(RUNS).fill(7));
  });

  it('plain commands that end by themselves exit 0 (openapi; session mint against a serve), every time', async () => {
    const serve = await startServe([], { db: ':memory:' });
    const codes: Array<number | null> = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        codes.push((await runCli(['openapi'], { cwd: dir })).code);
        codes.push((await runCli(['session', 'mint', '--user', `m${i}`, '--base-url', serve.baseUrl], { cwd: dir })).code);
      }
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(codes).toEqual(Array(2 * RUNS).fill(0));
  });
});

/** The machine's own Node, where it is older than scanctl supports (these machines come with 20). */
const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
  return version !== undefined && version !== '' && Number(version.split('.')[0]) < 22;
});

describe.skipIf(!oldNode)(`on a Node older than 22.14 (${oldNode ?? 'none on this machine'})`, () => {
  it('scanctl says which Node it needs in one line and exits 1, instead of crashing in the addon', () => {
    for (const args of [['--version'], ['serve', '--db', ':memory:']]) {
      const result = spawnSync(oldNode!, [BIN, ...args], { encoding: 'utf8', cwd: dir });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^scanctl: needs Node 22\.14 or newer, 24 or 26; this is Node \d+\.\d+\.\d+ \(Node 20 reached its end of life on 2026-04-30\)\n$/,
      );
    }
  });
});
