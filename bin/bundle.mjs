// Bundles what runs into dist/bundle/ (tsc still builds dist/ for the types and for scanctl/verify):
// - cli.cjs, one CommonJS file that bin/scanctl.js requires with Node's compile cache on, and
//   tui.mjs, the Ink view with ink and react (an ES module: ink's yoga has a top-level await), which
//   cli.cjs imports only when `webhook listen` draws on a terminal. Inside cli.cjs, modules that are
//   imported lazily (the emulator, the console) are still evaluated only when first imported.
// - index.mjs, the library (`import { startEmulator } from 'scanctl'`): an ES module with chunks for
//   what it imports lazily. A user's test process imports it in about half the time of the same
//   modules one by one (bench start-emulator). It imports scanctl/verify (dist/verify.js) rather
//   than a copy, so both entries share one SignatureVerificationError.
// - global-options.cjs, the launcher's: which command a command line runs, before cli.cjs loads.
// better-sqlite3 stays in node_modules, where it finds its own addon.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * zod exports every locale (about 65 modules, a third of its size) through z.locales; scanctl
 * uses none but English, which zod registers itself. Only en stays in the bundle.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: `${root}node_modules/zod/v4/locales`,
    }));
  },
};
/**
 * @hono/node-server imports http2 only to recognise HTTP/2 requests, which scanctl's HTTP/1.1
 * server never gets; loading http2 (and tls with it) costs start-up time for nothing.
 */
const noHttp2ForHonoServer = {
  name: 'no-http2-for-hono-node-server',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
      /[\\/]@hono[\\/]node-server[\\/]/.test(args.importer) ? { path: 'http2-stub', namespace: 'scanctl-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'scanctl-stub' }, () => ({
      contents: 'export class Http2ServerRequest {}\nexport const constants = { NGHTTP2_NO_ERROR: 0 };\n',
      loader: 'js',
    }));
  },
};

/** The Ink view is its own ES module bundle, tui.mjs, imported at run time. */
const tuiSeparate = {
  name: 'tui-separate',
  setup(b) {
    b.onResolve({ filter: /[\\/]tui[\\/]render\.js$/ }, () => ({ path: 'tui-loader', namespace: 'scanctl-tui' }));
    b.onLoad({ filter: /.*/, namespace: 'scanctl-tui' }, () => ({
      // A specifier in a variable: esbuild leaves the import to run time, beside the bundle.
      contents:
        "const tui = './tui.mjs';\nexport async function renderListen(...args) { return (await import(tui)).renderListen(...args); }\n",
      loader: 'js',
    }));
  },
};

/** Every import of src/verify.ts stays an import of the built dist/verify.js: one instance for both entries. */
const verifyShared = {
  name: 'verify-shared',
  setup(b) {
    b.onResolve({ filter: /[\\/]verify\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === join(root, 'src', 'verify.js') ? { path: '../verify.js', external: true } : undefined,
    );
  },
};

const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // react-devtools-core: ink imports it only with DEV=true, and it is not installed.
  // better-sqlite3: loaded from node_modules, where its lib/binding.js finds the addon it ships.
  external: ['react-devtools-core', 'better-sqlite3'],
  jsx: 'automatic',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Every module shares the bundle's URL, as package-root.ts expects.
  define: { 'import.meta.url': '__scanctlBundleUrl' },
  banner: { js: "const __scanctlBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [zodEnglishOnly, noHttp2ForHonoServer, tuiSeparate],
});
await build({
  ...common,
  entryPoints: { tui: 'src/tui/render.tsx' },
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  // ink imports its devtools (and react-devtools-core, not installed) only with DEV=true: a chunk of their own.
  splitting: true,
  chunkNames: 'tui-[hash]',
  // react's CommonJS modules call require() for node builtins: give the ESM bundle a require.
  banner: {
    js: "import { createRequire as __scanctlCreateRequire } from 'node:module'; const require = __scanctlCreateRequire(import.meta.url);",
  },
});
await build({
  ...common,
  entryPoints: { index: 'src/index.ts' },
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  splitting: true,
  chunkNames: 'lib-[hash]',
  // Readable: a user's test that fails inside scanctl gets a stack trace they can follow (minified
  // or not, it imported in the same time: median 186 against 182 ms of 11 interleaved, Node 24).
  minifyWhitespace: false,
  minifySyntax: false,
  plugins: [zodEnglishOnly, noHttp2ForHonoServer, verifyShared],
});
// The launcher (bin/scanctl.js) reads which command a command line runs before it loads the CLI, with
// the CLI's own function (src/cli/global-options.ts), so `scanctl --app X serve` is serve to both.
await build({
  ...common,
  entryPoints: { 'global-options': 'src/cli/global-options.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
});
