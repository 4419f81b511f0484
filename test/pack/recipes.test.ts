import { execFile } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  clientEnv,
  hasJavaAndJunit,
  hasTool,
  installJavaClient,
  installPythonClient,
  installRubyClient,
  JUNIT,
  pathWithoutNode,
  requireGoClient,
} from '../helpers/clients.js';
import { skipPack } from '../helpers/skip-pack.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The recipes of examples/ as a team gets them: each folder copied outside this repository, its
 * language's library installed from a copy of clients/<language> the way the recipe's README says
 * (Python: pip from the path; Go: a `replace` to the copy; Ruby: the gem built and installed with
 * `gem install --local` into a GEM_HOME of its own; Java: the jar built with javac, JUnit's console
 * launcher from Debian's junit5), handed scanctl as SCANCTL_BIN by test/helpers/clients.ts, and its
 * tests run with its own toolchain. Afterwards no process started there is alive and the folder
 * holds only the recipe's files and what its README says running adds. Python always runs; Go, Ruby
 * and Java where their tool is installed. Slow (an install each) and alone in its file;
 * SCANCTL_SKIP_PACK=1 skips it.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = skipPack('recipes');
const options = { maxBuffer: 16 * 1024 * 1024, timeout: 280_000 };

/** examples/java's README: its two commands. */
const JAVA_STEPS =
  'javac -cp "$JUNIT:$SCANCTL_JAR" -d build *.java && java -jar "$JUNIT" -cp "build:$SCANCTL_JAR" --select-class WebhooksTest';

interface Recipe {
  folder: string;
  /** Whether its toolchain is here (false: skipped, named with `tool`). */
  available: boolean;
  tool: string;
  /** Its library's install, from a copy of clients/<folder>, into the recipe's copy `dir`: the command to run and what it adds to the environment. */
  install: (dir: string) => Promise<{ command: string[]; env?: Record<string, string> }>;
  /** The commands it runs besides its own, on a PATH that holds them and no node (pathWithoutNode). */
  tools: string[];
  passed: RegExp;
  /** What running it adds beside its own files: its README says so and its .gitignore lists them. */
  madeByRunning: string[];
}

const RECIPES: Recipe[] = [
  {
    folder: 'python',
    available: true,
    tool: 'python3',
    // The virtual environment clients/python was pip-installed into.
    install: async () => ({ command: [(await installPythonClient()).python, '-m', 'pytest', '-q'] }),
    tools: [],
    passed: /\b4 passed\b/,
    madeByRunning: ['.pytest_cache', '__pycache__'],
  },
  {
    folder: 'go',
    available: hasTool('go', 'version'),
    tool: 'go',
    install: async (dir) => {
      await requireGoClient(dir);
      return { command: ['go', 'test', '-count=1', '-v', './...'] };
    },
    passed: /^ok\s/m,
    // go test builds with cgo where a C compiler is found.
    tools: ['go', 'gcc', 'cc', 'as', 'ld'],
    madeByRunning: [],
  },
  {
    folder: 'ruby',
    available: hasTool('ruby') && hasTool('gem'),
    tool: 'ruby',
    install: async () => ({ command: ['ruby', 'webhooks_test.rb'], env: { GEM_HOME: (await installRubyClient()).env.GEM_HOME! } }),
    passed: /4 runs, \d+ assertions, 0 failures, 0 errors/,
    tools: ['ruby', 'gem'],
    madeByRunning: [],
  },
  {
    folder: 'java',
    available: hasJavaAndJunit(),
    tool: 'javac or junit5',
    install: async () => ({
      command: ['sh', '-c', JAVA_STEPS],
      env: { JUNIT: JUNIT.launcher, SCANCTL_JAR: (await installJavaClient()).jar },
    }),
    passed: /\[\s+4 tests successful\s+\]/,
    tools: ['java', 'javac'],
    madeByRunning: ['build'],
  },
];

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
  for (const recipe of RECIPES) {
    const name = `${recipe.folder}${recipe.available ? '' : ` (skipped: no ${recipe.tool})`}`;
    describe.skipIf(!recipe.available)(`the ${name} recipe`, () => {
      let dir = '';
      let result = { code: 0, output: '' };

      beforeAll(async () => {
        dir = join(tempDir(`scanctl-recipe-${recipe.folder}-`), 'recipe');
        cpSync(join(ROOT, 'examples', recipe.folder), dir, {
          recursive: true,
          filter: (path) => !recipe.madeByRunning.some((made) => path.endsWith(`/${made}`)),
        });
        const installed = await recipe.install(dir);
        // A team without Node: the single executable as SCANCTL_BIN (the tests' one helper), and no node on PATH.
        const env = clientEnv({ PATH: pathWithoutNode(...recipe.tools), ...installed.env });
        result = await run(installed.command[0]!, installed.command.slice(1), { cwd: dir, env, ...options }).then(
          ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
          (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
        );
      }, 300_000);

      it('CHOICE-49: carries no npm package: no package.json, lock or vendor/', () => {
        const own = files(join(ROOT, 'examples', recipe.folder), new Set());
        expect(own.filter((f) => /^(package(-lock)?\.json|vendor\/)/.test(f) || f.endsWith('.tgz'))).toEqual([]);
      });

      it('WH-4, WH-9, CHOICE-41: its tests pass: a retried webhook verified and acknowledged, each test restored to the checkpoint', () => {
        expect(result.code, result.output).toBe(0);
        expect(result.output).toMatch(recipe.passed);
      });

      it('CHOICE-50: leaves no process behind (the emulator is stopped with what it started)', () => {
        expect(processesIn(dir)).toEqual([]);
      });

      it('CHOICE-50: leaves only the recipe files and what its README says running adds', () => {
        const made = new Set(recipe.madeByRunning);
        const copied = files(join(ROOT, 'examples', recipe.folder), made);
        expect(files(dir, made).sort()).toEqual(copied.sort());
        for (const folder of readdirSync(dir)) {
          if (!copied.some((f) => f.split('/')[0] === folder)) expect(made, `${folder} is not in the README`).toContain(folder);
        }
        for (const folder of made)
          expect(readFileSync(join(ROOT, 'examples', recipe.folder, '.gitignore'), 'utf8')).toContain(`${folder}/`);
      });
    });
  }
});
