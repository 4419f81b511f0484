import { spawn, spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';
import {
  clientEnv,
  hasDebianPython,
  hasJavaAndJunit,
  installJavaClient,
  installPythonClient,
  installRubyClient,
  JUNIT,
  requireGoClient,
} from '../helpers/clients.js';
import { tempDir } from '../helpers/temp.js';

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

/** Whether the toolchain answers (`go version`; the others take --version). */
const has = (tool: string) => spawnSync(tool, [tool === 'go' ? 'version' : '--version'], { encoding: 'utf8' }).status === 0;
/** The Python recipe is a pytest suite on the scanctl plugin (clients/python), pip-installed over Debian's pytest and Flask. */
const hasPytest = hasDebianPython;
let python: Promise<string> | null = null;
const pythonWithPlugin = () => (python ??= installPythonClient().then((installed) => installed.python));

interface Recipe {
  tool: string;
  folder: string;
  /** Its command; `python` stands for a python with the scanctl plugin installed. */
  command: string[];
  /** What its output says when every check passed. */
  passed: RegExp;
  /** Its library's install into the copy, as its README says (Go: a `replace` to a copy of clients/go). */
  library?: (dir: string) => Promise<void>;
  /** Where its library was installed, as environment variables (Ruby: the GEM_HOME of the built gem). */
  env?: () => Promise<Record<string, string>>;
}

/** examples/java's README: its two commands. */
const JAVA_STEPS =
  'javac -cp "$JUNIT:$SCANCTL_JAR" -d build *.java && java -jar "$JUNIT" -cp "build:$SCANCTL_JAR" --select-class WebhooksTest';

const RECIPES: Record<string, Recipe> = {
  python: {
    tool: 'python3',
    folder: 'python',
    command: ['python', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
    passed: /\b4 passed\b/,
  },
  java: {
    tool: 'javac',
    folder: 'java',
    command: ['sh', '-c', JAVA_STEPS],
    passed: /\[\s+4 tests successful\s+\]/,
    // The extension's jar, built from a copy of clients/java; JUnit's console launcher from Debian's junit5.
    env: async () => ({ JUNIT: JUNIT.launcher, SCANCTL_JAR: (await installJavaClient()).jar }),
  },
  go: { tool: 'go', folder: 'go', command: ['go', 'test', '-count=1', '-v', './...'], passed: /^ok\s/m, library: requireGoClient },
  ruby: {
    tool: 'ruby',
    folder: 'ruby',
    command: ['ruby', 'webhooks_test.rb'],
    passed: /4 runs, \d+ assertions, 0 failures, 0 errors/,
    env: async () => ({ GEM_HOME: (await installRubyClient()).env.GEM_HOME! }),
  },
};

/** Runs a recipe in a copy of its folder with `env` (the contract's names not in it are unset). */
async function runRecipe(recipe: Recipe, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const command = recipe.command[0] === 'python' ? [await pythonWithPlugin(), ...recipe.command.slice(1)] : recipe.command;
  const dir = tempDir(`scanctl-recipe-${recipe.folder}-`);
  cpSync(join(EXAMPLES, recipe.folder), dir, { recursive: true });
  await recipe.library?.(dir);
  // The libraries' environment (SCANCTL_BIN: their way to find scanctl when SCANCTL_BASE_URL is not set).
  const base: Record<string, string | undefined> = { ...clientEnv(), ...(await recipe.env?.()) };
  return await new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: dir,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The recipes of docs/languages.md, run as a reader would, each on its language's library installed
 * from a copy of clients/: with the environment contract set, each uses that running serve (and
 * leaves it running); without it, each starts its own through SCANCTL_BIN and stops it. Either way
 * it mints through the team's app, plays a retried webhook with the control plane's simulate route
 * and verifies the delivery's signature with its library's check (WH-4). Each is skipped, named
 * with its tool, where that toolchain is not installed.
 */
describe('the language recipes (examples/, docs/languages.md)', () => {
  for (const [language, recipe] of Object.entries(RECIPES)) {
    it.skipIf(!(recipe.tool === 'python3' ? hasPytest() : recipe.tool === 'javac' ? hasJavaAndJunit() : has(recipe.tool)))(
      `WH-4: the ${language} recipe reaches serve through the environment contract (skipped without ${recipe.tool})`,
      { timeout: 180_000 },
      async () => {
        const serve = await startServe([], { db: ':memory:' });
        try {
          const result = await runRecipe(recipe, serve.ready.env as Record<string, string>);
          expect(result.code, result.output).toBe(0);
          expect(result.output).toMatch(recipe.passed);
        } finally {
          await serve.stop();
        }
      },
    );
  }

  it.skipIf(!hasPytest())(
    'CHOICE-50: the python recipe starts its own serve when the contract is not set (one, then one per worker under -n 4), and stops it (skipped without pytest)',
    { timeout: 120_000 },
    async () => {
      for (const args of [[], ['-n', '4']]) {
        const recipe = { ...RECIPES.python!, command: [...RECIPES.python!.command, ...args] };
        const result = await runRecipe(recipe, {});
        expect(result.code, result.output).toBe(0);
        expect(result.output).toMatch(RECIPES.python!.passed);
      }
    },
  );

  for (const language of ['go', 'ruby', 'java']) {
    const recipe = RECIPES[language]!;
    it.skipIf(!(recipe.tool === 'javac' ? hasJavaAndJunit() : has(recipe.tool)))(
      `CHOICE-50: the ${language} recipe starts its own serve when the contract is not set, and stops it (skipped without ${recipe.tool})`,
      { timeout: 120_000 },
      async () => {
        const result = await runRecipe(recipe, {});
        expect(result.code, result.output).toBe(0);
        expect(result.output).toMatch(recipe.passed);
      },
    );
  }
});
