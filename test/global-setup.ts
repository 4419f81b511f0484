import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The whole run gets one temporary folder: TMPDIR points there for the test workers and every
 * process they start (the CLI, serve, npm), so whatever anything makes with os.tmpdir() lands in
 * it. At the end the folder must be empty: a `scanctl-*` folder still in it is a test that did
 * not clean up after itself, and fails the run. The folder goes either way.
 *
 * Each vitest project runs its global setup; the first one makes the folder, the last
 * teardown checks and removes it.
 */
const shared = globalThis as typeof globalThis & { scanctlTestRun?: { root: string; users: number; tmpBefore: string | undefined } };

export function setup(): void {
  if (!shared.scanctlTestRun) {
    const root = mkdtempSync(join(tmpdir(), 'scanctl-test-run-'));
    shared.scanctlTestRun = { root, users: 0, tmpBefore: process.env.TMPDIR };
    process.env.TMPDIR = root;
  }
  shared.scanctlTestRun.users += 1;
}

export function teardown(): void {
  const run = shared.scanctlTestRun;
  if (!run || --run.users > 0) return;
  shared.scanctlTestRun = undefined;
  if (run.tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.tmpBefore;
  const left = readdirSync(run.root);
  rmSync(run.root, { recursive: true, force: true });
  const ours = left.filter((name) => name.startsWith('scanctl-'));
  if (ours.length > 0) {
    // vitest reports an error thrown here but still exits 0: set the exit code too.
    process.exitCode = 1;
    throw new Error(
      `the tests left ${ours.length} temporary folder(s) behind (now removed): ${ours.join(', ')}; create them with tempDir() from test/helpers/temp.ts`,
    );
  }
}
