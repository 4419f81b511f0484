import { existsSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
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
const shared = globalThis as typeof globalThis & {
  /** jvmFolder: the JVM's folder when it was not there at the start (this run may make it), else null. */
  scanctlTestRun?: { root: string; users: number; tmpBefore: string | undefined; jvmFolder: string | null };
};

/**
 * The JVM (the Java recipe's javac and java) keeps its performance data in /tmp/hsperfdata_<user>
 * whatever TMPDIR says, and leaves that folder, empty, when it exits.
 */
function jvmFolder(): string | null {
  try {
    return join('/tmp', `hsperfdata_${userInfo().username}`);
  } catch {
    return null; // A user with no name (a container's bare uid): nothing to look for.
  }
}
const JVM_FOLDER = jvmFolder();

export function setup(): void {
  if (!shared.scanctlTestRun) {
    const root = mkdtempSync(join(tmpdir(), 'scanctl-test-run-'));
    shared.scanctlTestRun = {
      root,
      users: 0,
      tmpBefore: process.env.TMPDIR,
      jvmFolder: JVM_FOLDER !== null && !existsSync(JVM_FOLDER) ? JVM_FOLDER : null,
    };
    process.env.TMPDIR = root;
    // The single executable unpacks its runtime folder into the user's cache: under test, the run's own.
    if (process.env.SCANCTL_TEST_EXE) process.env.XDG_CACHE_HOME = join(root, 'exe-cache');
  }
  shared.scanctlTestRun.users += 1;
}

export function teardown(): void {
  const run = shared.scanctlTestRun;
  if (!run || --run.users > 0) return;
  shared.scanctlTestRun = undefined;
  if (run.tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = run.tmpBefore;
  if (run.jvmFolder !== null) {
    try {
      rmdirSync(run.jvmFolder); // Only when empty: a JVM still running elsewhere keeps it.
    } catch {
      // Never made, not empty, or not ours to remove.
    }
  }
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
