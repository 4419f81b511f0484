import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/contract/environment.js';
import { tempDir } from '../helpers/temp.js';

/**
 * examples/python as a team gets it: the folder copied outside this repository, scanctl packed once
 * into its vendor/, installed the way its README says (`npm install`, then CI's `npm ci`), and
 * pytest run in it. Afterwards no process started there is alive and the folder holds only the
 * recipe's files. Slow (an install) and alone in its file; SCANCTL_SKIP_PACK=1 skips it.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECIPE = join(ROOT, 'examples', 'python');
const TARBALL = 'vendor/scanctl-0.1.0.tgz';
/** What running the recipe may add beside its own files (the README says so). */
const MADE_BY_RUNNING = new Set(['node_modules', '.pytest_cache', '__pycache__', '.scanctl']);
const skip = process.env.SCANCTL_SKIP_PACK === '1';

/** Every file under `dir`, relative, leaving out the folders running it makes. */
function files(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (MADE_BY_RUNNING.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path, root) : [relative(root, path)];
  });
}

/** Live processes whose command line or working folder is inside `dir`. */
function processesIn(dir: string): string[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        return cmdline.includes(dir) || cwd.startsWith(dir) ? [`${pid}: ${cmdline}`] : [];
      } catch {
        return []; // ended while we looked
      }
    });
}

describe.skipIf(skip)('the Python recipe, copied out and run as its README says', () => {
  let recipe = '';
  let pytest = { code: 0, output: '' };
  const options = { maxBuffer: 16 * 1024 * 1024, timeout: 280_000 };

  beforeAll(async () => {
    recipe = join(tempDir('scanctl-python-recipe-'), 'recipe');
    cpSync(RECIPE, recipe, { recursive: true, filter: (path) => !/(__pycache__|\.pytest_cache|node_modules|\.scanctl|\.tgz)$/.test(path) });
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'run npm run build first').toBe(true);
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', join(recipe, 'vendor')], { cwd: ROOT, ...options });
    // The README: `npm install` after adding the tarball (it pins the tarball's checksum), then CI's `npm ci`.
    const npm = ['--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'];
    await run('npm', ['install', ...npm], { cwd: recipe, ...options });
    await run('npm', ['ci', ...npm], { cwd: recipe, ...options });
    const env: Record<string, string | undefined> = {
      ...process.env,
      // The bin's `#!/usr/bin/env node` finds this Node line, as setup-node arranges in CI.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NO_COLOR: '1',
      PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
    };
    for (const name of Object.keys(ENVIRONMENT)) delete env[name];
    pytest = await run('python3', ['-m', 'pytest', '-q'], { cwd: recipe, env, ...options }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
    );
  }, 600_000);

  it('installs scanctl from the vendored tarball into node_modules/.bin/scanctl', () => {
    const lock = JSON.parse(readFileSync(join(recipe, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(lock.packages['node_modules/scanctl']?.resolved).toBe(`file:${TARBALL}`);
    expect(existsSync(join(recipe, 'node_modules', '.bin', 'scanctl'))).toBe(true);
  });

  it('CHOICE-49: pytest passes: a retried webhook verified and acknowledged, each test restored to the checkpoint', () => {
    expect(pytest.code, pytest.output).toBe(0);
    expect(pytest.output).toMatch(/\b4 passed\b/);
  });

  it('CHOICE-50: leaves no process behind (the emulator is stopped with its process group)', () => {
    expect(processesIn(recipe)).toEqual([]);
  });

  it('CHOICE-50: leaves only the recipe files, the tarball and what its README says running adds', () => {
    const copied = files(RECIPE).filter((f) => !f.endsWith('.tgz'));
    expect(files(recipe).sort()).toEqual([...copied, TARBALL].sort());
  });
});
