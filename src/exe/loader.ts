// The executable's main script (bin/build-exe.mjs, docs/executable.md). It runs the CLI's bundle,
// an asset, with V8's code cache made after a training run of the executable itself: that cache
// holds the functions the common commands compile, where Node's own cache of a main script holds
// only its top level (serve's first 201 about 20% sooner, docs/performance.md).
import { writeFileSync } from 'node:fs';
import { getAsset } from 'node:sea';
import { Script, constants } from 'node:vm';
import { runExecutable } from './main.js';

/** What the bundle (entry.ts) exports. */
interface Bundle {
  main(argv: string[]): Promise<void>;
  train(): Promise<void>;
}

const trainingOutput = process.env.SCANCTL_EXE_TRAIN;
if (trainingOutput) {
  // The build's training run: the cache of what its commands compiled.
  const { bundle, script } = loadBundle(undefined);
  void bundle.train().then(() => writeFileSync(trainingOutput, script.createCachedData()));
} else {
  runExecutable(() => {
    const { bundle, script } = loadBundle(trainedCache());
    // The build checks that V8 took the cache: one that V8 rejects costs the whole gain, silently.
    if (process.env.SCANCTL_EXE_CACHE_CHECK === '1' && script.cachedDataRejected !== false) {
      process.stderr.write('scanctl: V8 rejected the code cache\n');
      process.exit(70);
    }
    void bundle.main(process.argv);
  });
}

/** The bundle, compiled with `cachedData` and run as Node runs a CommonJS module, with this script's require. */
function loadBundle(cachedData: Buffer | undefined): { bundle: Bundle; script: Script } {
  const source = `(function (exports, require, module, __filename, __dirname) {${getAsset('cli.js', 'utf8')}\n})`;
  const script = new Script(source, {
    filename: __filename,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const wrapper: unknown = script.runInThisContext();
  const module: { exports: unknown } = { exports: {} };
  if (isFunction(wrapper)) wrapper(module.exports, require, module, __filename, __dirname);
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
