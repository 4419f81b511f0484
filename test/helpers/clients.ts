import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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
 * A PATH as a team without Node has: one folder of links to the shell, Debian's python3 and the
 * basic tools, and `extra` commands (a toolchain's folder, say); no `node` anywhere on it.
 */
export function pathWithoutNode(...extra: string[]): string {
  const bin = tempDir('scanctl-path-without-node-');
  for (const tool of ['/bin/sh', '/usr/bin/env', '/usr/bin/python3', '/usr/bin/true', '/usr/bin/cat', '/usr/bin/uname']) {
    if (existsSync(tool)) symlinkSync(tool, join(bin, basename(tool)));
  }
  const path = [bin, ...extra].join(':');
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

/** The environment a library runs in: the contract's names unset (so it starts its own emulator), SCANCTL_BIN set. */
export function clientEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', PYTHONDONTWRITEBYTECODE: '1' };
  for (const name of [...Object.keys(ENVIRONMENT), 'SCANCTL_COMMAND', 'SCANCTL_BIN', 'PYTEST_DISABLE_PLUGIN_AUTOLOAD']) delete env[name];
  return { ...(env as Record<string, string>), SCANCTL_BIN: scanctlBinForClients(), ...extra };
}

const run = promisify(execFile);

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
