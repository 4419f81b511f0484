// The executable's main script (bin/build-exe.mjs, docs/executable.md). It runs the CLI's bundle,
// an asset, with V8's code cache made after a training run of the executable itself: that cache
// holds the functions the common commands compile, where Node's own cache of a main script holds
// only its top level (serve's first 201 about 20% sooner, docs/performance.md).
import { writeFileSync } from 'node:fs';
import { getAsset } from 'node:sea';
import { Script } from 'node:vm';
import { runExecutable } from './main.js';

/** What the bundle (entry.ts) exports. */
interface Bundle {
  main(argv: string[]): Promise<void>;
  train(): Promise<void>;
}

/** A trained cache holds far more than the top level alone: less means the training compiled nothing. */
const TRAINED_AT_LEAST = 2;

const trainingOutput = process.env.SCANCTL_EXE_TRAIN;
// Only the build's first executable, which carries no cache yet, trains: a shipped one ignores the variable.
if (trainingOutput && trainedCache() === undefined) void train(trainingOutput);
else {
  // The cache is read (a copy of 1.5 MB) only where the bundle runs: not for --version or a restart.
  runExecutable(() => {
    const cache = trainedCache();
    const { bundle, script } = loadBundle(cache);
    // The build checks that V8 took the cache: one that V8 rejects costs the whole gain, silently.
    if (process.env.SCANCTL_EXE_CACHE_CHECK === '1' && script.cachedDataRejected !== false) {
      process.stderr.write(`scanctl: ${cache ? 'V8 rejected the code cache' : 'the executable carries no code cache'}\n`);
      process.exit(70);
    }
    void bundle.main(process.argv);
  });
}

/** The build's training run: the commands, then the cache of what they compiled, then exit. */
async function train(output: string): Promise<void> {
  const { bundle, script } = loadBundle(undefined);
  const untrained = script.createCachedData().length;
  await bundle.train();
  const trained = script.createCachedData();
  if (trained.length < TRAINED_AT_LEAST * untrained) {
    throw new Error(`training: the code cache grew from ${untrained} to only ${trained.length} bytes`);
  }
  writeFileSync(output, trained);
  process.exit(0);
}

/**
 * The bundle, compiled with `cachedData` and run as Node runs a CommonJS module, with this
 * script's require, and its import() as `__scanctlImport` (the Ink view's ES module, a file of the
 * runtime folder): vm's own main-context loader for import() warns that it is experimental.
 */
function loadBundle(cachedData: Buffer | undefined): { bundle: Bundle; script: Script } {
  const source = `(function (exports, require, module, __filename, __dirname, __scanctlImport) {${getAsset('cli.js', 'utf8')}\n})`;
  const script = new Script(source, { filename: __filename, cachedData });
  const wrapper: unknown = script.runInThisContext();
  const module: { exports: unknown } = { exports: {} };
  const importModule = (url: string): Promise<unknown> => import(url);
  if (isFunction(wrapper)) wrapper(module.exports, require, module, __filename, __dirname, importModule);
  if (!isBundle(module.exports)) throw new Error('scanctl: the executable carries no CLI bundle');
  return { bundle: module.exports, script };
}

function isFunction(value: unknown): value is (...args: unknown[]) => void {
  return typeof value === 'function';
}

function isBundle(value: unknown): value is Bundle {
  return typeof value === 'object' && value !== null && 'main' in value && 'train' in value;
}

/** The training run's code cache; a build for another platform carries none. */
function trainedCache(): Buffer | undefined {
  try {
    return Buffer.from(getAsset('cli.cache'));
  } catch {
    return undefined;
  }
}
