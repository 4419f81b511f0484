import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { tempDir } from './temp.js';

export const BIN = fileURLToPath(new URL('../../bin/scanctl.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The single executable under test, when SCANCTL_TEST_EXE names one (`npm run test:exe` runs the e2e
 * project so, against dist/exe/scanctl); otherwise the npm package's launcher is.
 */
export const TEST_EXE = process.env.SCANCTL_TEST_EXE ? resolve(ROOT, process.env.SCANCTL_TEST_EXE) : undefined;

/** The program and arguments that run scanctl with `args` (`bin`: another launcher, a package copy's). */
export function scanctlArgv(args: string[], bin?: string): [string, string[]] {
  if (TEST_EXE && bin === undefined) return [TEST_EXE, args];
  return [process.execPath, [bin ?? BIN, ...args]];
}

/** The Node the single executable carries: bin/build-exe.mjs's NODE_VERSION, as `v24.x.y`. */
export function exeNodeVersion(): string {
  const pinned = /^const NODE_VERSION = '([\d.]+)';$/m.exec(readFileSync(join(ROOT, 'bin', 'build-exe.mjs'), 'utf8'))?.[1];
  if (!pinned) throw new Error('bin/build-exe.mjs pins no NODE_VERSION');
  return `v${pinned}`;
}

/** scanctl as words for a shell command line (quoted paths). */
export const SCANCTL_SHELL = TEST_EXE ? `"${TEST_EXE}"` : `"${process.execPath}" "${BIN}"`;

/**
 * A copy of the built package (bin, dist, fixtures, package.json; node_modules linked) in a fresh
 * folder removed after the file, for tests that change the built CLI. Its launcher: `join(dir, 'bin', 'scanctl.js')`.
 */
export function packageCopy(prefix = 'scanctl-copy-'): string {
  const dir = tempDir(prefix);
  for (const part of ['bin', 'dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a child process (npm test builds first). */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(...scanctlArgv(args), {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', SCANCTL_SECRET_KEY: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface ServeProcess {
  child: ChildProcess;
  baseUrl: string;
  ready: Record<string, unknown>;
  dir: string;
  db: string;
  stderr: () => string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

/**
 * Starts `scanctl serve --port 0 --json` in a fresh folder (removed after the file) and waits for
 * its ready line; `bin`: another launcher (a package copy's).
 */
export async function startServe(
  extraArgs: string[] = [],
  options: { dir?: string; db?: string; env?: Record<string, string>; bin?: string; before?: string[] } = {},
): Promise<ServeProcess> {
  const dir = options.dir ?? tempDir('scanctl-e2e-');
  const db = options.db ?? join(dir, 'emulator.db');
  // `before`: global options written before the command (`scanctl --app X serve`).
  const args = [...(options.before ?? []), 'serve', '--port', '0', '--json', '--db', db, ...extraArgs];
  const child = spawn(...scanctlArgv(args, options.bin), {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not become ready: ${stderr}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`first stdout line is not JSON: ${line}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
  });
  return {
    child,
    baseUrl: String(ready.base_url),
    ready,
    dir,
    db,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
