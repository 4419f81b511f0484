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
import { noHttp2ForHonoServer, root, tuiSeparate, verifyShared, zodEnglishOnly } from './bundle-plugins.mjs';

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
