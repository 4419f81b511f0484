import { execFile, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { ENVIRONMENT } from '../../src/contract/environment.js';
import { tempDir } from './temp.js';

/** The test libraries of clients/, one folder per language. */
export const CLIENTS = fileURLToPath(new URL('../../clients', import.meta.url));
/** Debian's python3, with its pytest, pytest-xdist, Flask and setuptools (a pyenv python3 on PATH may lack them). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** The single executable (npm test builds it before the tests). */
const EXE = fileURLToPath(new URL('../../dist/exe/scanctl', import.meta.url));

/**
 * The scanctl the libraries are handed as SCANCTL_BIN: the one place the tests choose it. The single
 * executable, so that a library's suite needs no Node (and runs with pathWithoutNode()).
 */
export function scanctlBinForClients(): string {
  if (!existsSync(EXE)) throw new Error('dist/exe/scanctl is not built: npm run build:exe (npm test builds it)');
  return EXE;
}

/**
 * A PATH as a team without Node has: one folder of links to the shell, Debian's python3, the basic
 * tools and `tools` (found on this PATH: a toolchain's commands); no `node` anywhere on it.
 */
export function pathWithoutNode(...tools: string[]): string {
  const bin = tempDir('scanctl-path-without-node-');
  const found = (name: string) => spawnSync('/bin/sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  const links = ['/bin/sh', '/usr/bin/env', '/usr/bin/python3', '/usr/bin/true', '/usr/bin/cat', '/usr/bin/uname', ...tools.map(found)];
  for (const tool of links.filter((t) => t.startsWith('/') && existsSync(t))) symlinkSync(tool, join(bin, basename(tool)));
  const path = bin;
  if (spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: path } }).status === 0) throw new Error(`node is on ${path}`);
  return path;
}

/** Debian's python3 with every module the Python library's suite needs (skip the suite without them). */
export function hasDebianPython(): boolean {
  const modules = 'import pytest, xdist, flask, setuptools, pip';
  return spawnSync(DEBIAN_PYTHON, ['-c', modules]).status === 0;
}

/** Whether a toolchain answers (`go version`, `ruby --version`, `javac --version`). */
export const hasTool = (tool: string, ...args: string[]) => spawnSync(tool, args.length ? args : ['--version']).status === 0;

/**
 * The environment a library runs in: the contract's names unset (so it starts its own emulator),
 * SCANCTL_BIN set; `go` without a module proxy or a toolchain download (none is reachable here).
 */
export function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    PYTHONDONTWRITEBYTECODE: '1',
    GOPROXY: 'off',
    GOFLAGS: '-mod=mod',
    GOTOOLCHAIN: 'local',
    GOWORK: 'off',
  };
  for (const name of [...Object.keys(ENVIRONMENT), 'SCANCTL_COMMAND', 'SCANCTL_BIN', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD']) delete env[name];
  return { ...(env as Record<string, string>), SCANCTL_BIN: scanctlBinForClients(), ...extra };
}

const run = promisify(execFile);

/** Runs a command to its end: its exit code and its stdout and stderr, interleaved. */
export function runIn(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * clients/python copied outside the repository and installed as its README says: a virtual
 * environment over Debian's packages, `pip install --no-build-isolation` from the path. Returns the
 * copy's folder and the environment's python.
 */
export async function installPythonClient(): Promise<{ dir: string; python: string }> {
  const dir = tempDir('scanctl-client-python-');
  cpSync(join(CLIENTS, 'python'), join(dir, 'scanctl-python'), { recursive: true });
  await run(DEBIAN_PYTHON, ['-m', 'venv', '--without-pip', '--system-site-packages', join(dir, 'venv')]);
  const python = join(dir, 'venv', 'bin', 'python');
  await run(python, ['-m', 'pip', 'install', '-q', '--no-build-isolation', '--no-index', join(dir, 'scanctl-python')], {
    cwd: dir,
    env: clientEnv(),
  });
  return { dir, python };
}

/** The Go library's module path (clients/go/go.mod). */
export const GO_MODULE = 'scanctl.local/scanctltest';

/**
 * clients/go copied outside the repository (its own tests left out) and required by the module in
 * `moduleDir` as its README says: `go mod edit -require=... -replace=...` pointing at the copy.
 */
export async function requireGoClient(moduleDir: string): Promise<void> {
  const library = join(tempDir('scanctl-client-go-'), 'scanctl-go');
  cpSync(join(CLIENTS, 'go'), library, { recursive: true, filter: (path) => !path.endsWith('_test.go') });
  await run('go', ['mod', 'edit', `-require=${GO_MODULE}@v0.0.0`, `-replace=${GO_MODULE}=${library}`], {
    cwd: moduleDir,
    env: clientEnv(),
  });
}

/**
 * A team's module (`go mod init`) requiring a copy of clients/go (requireGoClient); each of
 * `packages` is a folder of it holding a copy of the library's own test file. Returns the module's folder.
 */
export async function installGoClient(packages: string[]): Promise<string> {
  const team = join(tempDir('scanctl-client-go-team-'), 'team');
  mkdirSync(team);
  await run('go', ['mod', 'init', 'example.com/team'], { cwd: team, env: clientEnv() });
  await requireGoClient(team);
  for (const name of packages) {
    mkdirSync(join(team, name));
    cpSync(join(CLIENTS, 'go', 'scanctltest_test.go'), join(team, name, 'scanctltest_test.go'));
  }
  return team;
}

/**
 * clients/ruby copied outside the repository, its gem built and installed as its README says
 * (`gem build scanctl.gemspec`, `gem install --local`) into a GEM_HOME of its own. Returns the copy's
 * folder and the environment (GEM_HOME) in which `require "scanctl"` finds the installed gem.
 */
export async function installRubyClient(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = tempDir('scanctl-client-ruby-');
  const copy = join(dir, 'scanctl-ruby');
  cpSync(join(CLIENTS, 'ruby'), copy, { recursive: true });
  const env = clientEnv({ GEM_HOME: join(dir, 'gems') });
  await run('gem', ['build', 'scanctl.gemspec'], { cwd: copy, env });
  await run('gem', ['install', '--local', '--no-document', 'scanctl-0.1.0.gem'], { cwd: copy, env });
  return { dir, env };
}

/** Debian's JUnit 5 (apt package junit5): the API the extension compiles against, and the console launcher. */
export const JUNIT = {
  api: ['junit-jupiter-api', 'apiguardian-api', 'opentest4j', 'junit-platform-commons']
    .map((jar) => `/usr/share/java/${jar}.jar`)
    .join(':'),
  launcher: '/usr/share/java/junit-platform-console-standalone.jar',
};

/** Whether javac and Debian's JUnit 5 jars are here (skip the Java suites without them). */
export const hasJavaAndJunit = () =>
  hasTool('javac') && hasTool('jar') && [...JUNIT.api.split(':'), JUNIT.launcher].every((jar) => existsSync(jar));

/**
 * clients/java copied outside the repository and its jar built as its README says (javac against
 * JUnit's API, then jar). Returns the copy's folder and the jar.
 */
export async function installJavaClient(): Promise<{ dir: string; jar: string }> {
  const dir = tempDir('scanctl-client-java-');
  const copy = join(dir, 'scanctl-java');
  cpSync(join(CLIENTS, 'java'), copy, { recursive: true });
  const sources = readdirSync(join(copy, 'src/main/java/scanctl')).map((file) => join('src/main/java/scanctl', file));
  await run('javac', ['--release', '17', '-cp', JUNIT.api, '-d', 'build/classes', ...sources], { cwd: copy, env: clientEnv() });
  await run('jar', ['cf', 'build/scanctl-junit-0.1.0.jar', '-C', 'build/classes', '.'], { cwd: copy, env: clientEnv() });
  return { dir, jar: join(copy, 'build', 'scanctl-junit-0.1.0.jar') };
}

/** Whether a process with this pid is alive (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Live processes whose command line names `needle`. */
export function processesNaming(needle: string): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return cmdline.includes(needle) && alive(Number(pid)) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return [];
      }
    });
}

/**
 * A test run killed with -9 that printed its emulator's pid first: that emulator stops by itself
 * (serve's stdin pipe closed with the run), and only the library's folder for serve is left in `tmp`
 * (its stderr log; serve removed its own record), which no teardown ran to remove.
 */
export async function expectEmulatorGoneAfterKill(output: string, tmp: string): Promise<void> {
  const pid = Number(output.trim().split('\n')[0]);
  expect(pid, output).toBeGreaterThan(0);
  // A pid that is not our child has no exit event to wait on: bounded polling of /proc.
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(alive(pid), `emulator ${pid} outlived its killed test run`).toBe(false);
  const left = readdirSync(tmp);
  expect(left).toHaveLength(1);
  expect(readdirSync(join(tmp, left[0]!), { recursive: true }).sort()).toEqual(['.scanctl', 'stderr.log']);
}
