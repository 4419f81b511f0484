// Bundles the CLI into dist/bundle/: one CommonJS file, cli.cjs, that the launcher compiles with
// V8's code cache (Node 20 has no module compile cache; an ES module graph cannot use one), and
// tui.mjs, the Ink view with ink and react (an ES module: ink's yoga has a top-level await), which
// cli.cjs imports only when `webhook listen` draws on a terminal. Inside cli.cjs, modules that
// are imported lazily (the emulator, the console) are still evaluated only when first imported.
// better-sqlite3's JavaScript is bundled too; its addon is loaded by path (src/store/db.ts). tsc still builds dist/ for the library entry
// and the types. Then the code cache of `serve`'s start-up is written once (bin/scanctl.js).
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    b.onResolve({ filter: /^http2$/ }, (args) =>
      /[\\/]@hono[\\/]node-server[\\/]/.test(args.importer) ? { path: 'http2-stub', namespace: 'scanctl-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'scanctl-stub' }, () => ({
      contents: 'export class Http2ServerRequest {}\nexport const constants = { NGHTTP2_NO_ERROR: 0 };\n',
      loader: 'js',
    }));
  },
};

/**
 * The Ink view is its own ES module bundle, tui.mjs, imported at run time. A script compiled by
 * the launcher (vm.Script) has no import() of its own: it calls the one the launcher passes in
 * (__scanctlImport); required as a plain CommonJS module, it has import().
 */
const tuiSeparate = {
  name: 'tui-separate',
  setup(b) {
    b.onResolve({ filter: /[\\/]tui[\\/]render\.js$/ }, () => ({ path: 'tui-loader', namespace: 'scanctl-tui' }));
    b.onLoad({ filter: /.*/, namespace: 'scanctl-tui' }, () => ({
      contents:
        "const load = typeof __scanctlImport === 'function' ? __scanctlImport : (specifier) => import(specifier);\n" +
        "export async function renderListen(...args) { return (await load('./tui.mjs')).renderListen(...args); }\n",
      loader: 'js',
    }));
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
  banner: { js: "import { createRequire as __scanctlCreateRequire } from 'node:module'; const require = __scanctlCreateRequire(import.meta.url);" },
});
await writeServeCodeCache();

/**
 * Starts `serve` once (in memory, on a free port) so that the launcher writes the code cache of
 * its start-up, which every later `serve` and `exec` reads; stopped as soon as it is ready.
 */
async function writeServeCodeCache() {
  // In a folder of its own: serve records itself in .scanctl/ under its working folder.
  const cwd = mkdtempSync(join(tmpdir(), 'scanctl-build-'));
  const child = spawn(process.execPath, [`${root}bin/scanctl.js`, 'serve', '--db', ':memory:', '--port', '0', '--json'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.once('data', () => child.kill('SIGINT'));
  const code = await new Promise((resolve) => child.once('exit', (status, signal) => resolve(status ?? signal)));
  rmSync(cwd, { recursive: true, force: true });
  if (!readdirSync(outdir).some((name) => name.endsWith('.v8cache'))) {
    console.error(`bundle-cli: serve did not write its code cache (exit ${code}); the CLI works, compiling at each start`);
  }
}
