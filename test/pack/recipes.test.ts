import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/contract/environment.js';
import { clientEnv, installPythonClient, installRubyClient, requireGoClient } from '../helpers/clients.js';
import { skipPack } from '../helpers/skip-pack.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The recipes of examples/ as a team gets them: each folder copied outside this repository. A recipe
 * written with its language's library (Python: clients/python, pip-installed from a copy; Go:
 * clients/go, required through a `replace` to a copy; Ruby: clients/ruby, its gem built and
 * installed with `gem install --local` into a GEM_HOME of its own) is handed
 * scanctl as SCANCTL_BIN by test/helpers/clients.ts; the others get scanctl packed once and put in their vendor/, installed the way its README says (`npm install --ignore-scripts
 * ./vendor/scanctl-0.1.0.tgz`, which pins the new tarball's checksum, then CI's `npm ci`), and its
 * tests run with its own toolchain. Afterwards no process started there is alive and the folder holds
 * only the recipe's files and what its README says running adds. Python always runs; Go, Ruby and
 * Java where their tool is installed (.ci/run installs Go and Ruby). Slow (an install each) and alone
 * in its file; SCANCTL_SKIP_PACK=1 skips it.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TARBALL = 'vendor/scanctl-0.1.0.tgz';
const skip = skipPack('recipes');
const options = { maxBuffer: 16 * 1024 * 1024, timeout: 280_000 };

interface Recipe {
  folder: string;
  /** npm: scanctl from the vendored tarball; a library: the recipe is a test file of clients/<folder>, handed scanctl as SCANCTL_BIN. */
  install: 'npm' | 'library';
  /** A library's install into the copy `dir`, as the recipe's README says; returns the command to run and what it adds to the environment. */
  library?: (dir: string) => Promise<{ command: string[]; env?: Record<string, string> }>;
  /** The tool whose absence skips it (null: never skipped). */
  tool: string[] | null;
  command: string[];
  passed: RegExp;
  /** What running it adds beside its own files: its README says so and its .gitignore lists them. */
  madeByRunning: string[];
}

const RECIPES: Recipe[] = [
  {
    folder: 'python',
    install: 'library',
    tool: null,
    command: ['python', '-m', 'pytest', '-q'],
    // `python`: the virtual environment clients/python was pip-installed into.
    library: async () => ({ command: [(await installPythonClient()).python, '-m', 'pytest', '-q'] }),
    passed: /\b4 passed\b/,
    madeByRunning: ['.pytest_cache', '__pycache__'],
  },
  {
    folder: 'go',
    install: 'library',
    tool: ['go', 'version'],
    command: ['go', 'test', '-count=1', '-v', './...'],
    // The README's `go mod edit -replace`, to a copy of clients/go.
    library: async (dir) => {
      await requireGoClient(dir);
      return { command: ['go', 'test', '-count=1', '-v', './...'] };
    },
    passed: /^ok\s/m,
    madeByRunning: [],
  },
  {
    folder: 'ruby',
    install: 'library',
    tool: ['ruby', '--version'],
    command: ['ruby', 'webhooks_test.rb'],
    // The README's gem build and gem install --local, from a copy of clients/ruby, into a GEM_HOME of its own.
    library: async () => {
      const { env } = await installRubyClient();
      return { command: ['ruby', 'webhooks_test.rb'], env: { GEM_HOME: env.GEM_HOME! } };
    },
    passed: /4 runs, \d+ assertions, 0 failures, 0 errors/,
    madeByRunning: [],
  },
  {
    folder: 'java',
    install: 'npm',
    tool: ['javac', '--version'],
    command: ['sh', '-c', 'javac -d build *.java && java -cp build WebhooksTest'],
    passed: /^all passed$/m,
    madeByRunning: ['node_modules', '.scanctl', 'build'],
  },
];

/** The README's npm commands (the lines of its sh block that start with `npm`, comments cut), as npm's arguments. */
function npmSteps(readme: string): string[][] {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('npm '))
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/).slice(1));
}

const has = (tool: string[] | null) => tool === null || spawnSync(tool[0]!, tool.slice(1)).status === 0;

/** Every file under `dir`, relative, leaving out the folders `skipped` names. */
function files(dir: string, skipped: Set<string>, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path, skipped, root) : [relative(root, path)];
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

describe.skipIf(skip)('the recipes, copied out and run as their READMEs say', () => {
  let tarball = '';

  beforeAll(async () => {
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'run npm run build first').toBe(true);
    const packed = tempDir('scanctl-recipes-pack-');
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packed], { cwd: ROOT, ...options });
    tarball = join(packed, 'scanctl-0.1.0.tgz');
  }, 120_000);

  for (const recipe of RECIPES) {
    const available = has(recipe.tool);
    const name = `${recipe.folder}${available ? '' : ` (skipped: no ${recipe.tool![0]})`}`;
    describe.skipIf(!available)(`the ${name} recipe`, () => {
      let dir = '';
      let result = { code: 0, output: '' };

      beforeAll(async () => {
        dir = join(tempDir(`scanctl-recipe-${recipe.folder}-`), 'recipe');
        cpSync(join(ROOT, 'examples', recipe.folder), dir, {
          recursive: true,
          filter: (path) => !recipe.madeByRunning.some((made) => path.endsWith(`/${made}`)) && !path.endsWith('.tgz'),
        });
        let command = recipe.command;
        let env: Record<string, string | undefined>;
        if (recipe.library) {
          // The README's install, from a copy of clients/<language>; scanctl from the tests' one helper.
          const installed = await recipe.library(dir);
          command = installed.command;
          env = clientEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...installed.env });
        } else {
          copyFileSync(tarball, join(dir, TARBALL));
          // The README's commands: `npm install` naming the tarball just added (a plain `npm install` keeps the
          // lock's old checksum: EINTEGRITY, or the old tarball from npm's cache), then CI's `npm ci`.
          const steps = npmSteps(readFileSync(join(dir, 'README.md'), 'utf8'));
          expect(steps, 'the README installs scanctl this way').toEqual([
            ['install', '--ignore-scripts', `./${TARBALL}`],
            ['ci', '--ignore-scripts'],
          ]);
          for (const step of steps) await run('npm', [...step, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, ...options });
          env = {
            ...process.env,
            // The bin's `#!/usr/bin/env node` finds this Node line, as setup-node arranges in CI.
            PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
            NO_COLOR: '1',
            PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
          };
          for (const variable of Object.keys(ENVIRONMENT)) delete env[variable];
          delete env.SCANCTL_COMMAND;
        }
        result = await run(command[0]!, command.slice(1), { cwd: dir, env, ...options }).then(
          ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
          (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
        );
      }, 300_000);

      it.skipIf(recipe.install === 'library')(
        'CHOICE-49: installs scanctl from the vendored tarball into node_modules/.bin/scanctl',
        () => {
          const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
            packages: Record<string, { resolved?: string; integrity?: string }>;
          };
          expect(lock.packages['node_modules/scanctl']?.resolved).toBe(`file:${TARBALL}`);
          const packed = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
          expect(lock.packages['node_modules/scanctl']?.integrity, 'the lock pins the tarball just packed, not an older one').toBe(packed);
          const readPackage = (folder: string) => readFileSync(join(folder, 'package.json'), 'utf8');
          expect(readPackage(dir), 'package.json keeps file:vendor/...').toBe(readPackage(join(ROOT, 'examples', recipe.folder)));
          expect(existsSync(join(dir, 'node_modules', '.bin', 'scanctl'))).toBe(true);
        },
      );

      it('WH-4, WH-9, CHOICE-41: its tests pass: a retried webhook verified and acknowledged, each test restored to the checkpoint', () => {
        expect(result.code, result.output).toBe(0);
        expect(result.output).toMatch(recipe.passed);
      });

      it('CHOICE-50: leaves no process behind (the emulator is stopped with what it started)', () => {
        expect(processesIn(dir)).toEqual([]);
      });

      it('CHOICE-50: leaves only the recipe files, the tarball and what its README says running adds', () => {
        const made = new Set(recipe.madeByRunning);
        const copied = files(join(ROOT, 'examples', recipe.folder), made).filter((f) => !f.endsWith('.tgz'));
        expect(files(dir, made).sort()).toEqual([...copied, ...(recipe.install === 'npm' ? [TARBALL] : [])].sort());
        for (const folder of readdirSync(dir)) {
          if (!copied.some((f) => f.split('/')[0] === folder) && folder !== 'vendor')
            expect(made, `${folder} is not in the README`).toContain(folder);
        }
      });
    });
  }
});
