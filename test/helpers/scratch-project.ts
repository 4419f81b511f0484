import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A customer's project in a scratch folder, for the tests that run the docs' blocks and the
 * examples as pasted: scanctl installed (this checkout, built), a bash that runs a block as a
 * terminal would, and what the block left running.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Live processes (not zombies) whose working folder is `dir` or below it. */
export function processesIn(dir: string): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      if (/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) continue;
      found.push({ pid: Number(pid), command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** What `dir` left running, killed so that a failure leaves nothing behind either; returns their command lines. */
export function killLeftIn(dir: string): string[] {
  const left = processesIn(dir);
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  return left.map((p) => p.command);
}

/** node_modules/scanctl and node_modules/.bin/scanctl of a customer's project: this checkout, built. */
export function installScanctl(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'scanctl'));
  symlinkSync(join(ROOT, 'bin', 'scanctl.js'), join(dir, 'node_modules', '.bin', 'scanctl'));
}

export interface BashRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command line run by bash in `cwd` as in a terminal: no SCANCTL_ or VITEST variable of this
 * run's environment, and no colours (NO_COLOR) in what it prints.
 */
export function runBash(
  command: string,
  cwd: string,
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<BashRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SCANCTL_|VITEST)/.test(name)));
  const env = { ...inherited, NO_COLOR: '1', ...options.env };
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', command],
      { cwd, env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/**
 * Whether the npm registry answers (`npm ping`): installs of packages scanctl does not depend on
 * (Express) or of the packed tarball's dependencies need it. A test that needs it says so when skipped.
 */
export function registryReachable(): boolean {
  reachable ??= spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 30_000 }).status === 0;
  return reachable;
}
let reachable: boolean | undefined;
