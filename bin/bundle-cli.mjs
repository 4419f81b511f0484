// Bundles the CLI into dist/bundle/ (one ESM entry plus lazy chunks), so that start-up reads a
// handful of files instead of hundreds: `scanctl serve` loads the entry and the emulator's
// chunk; ink and react stay in chunks that only the TUI commands import. better-sqlite3 stays
// external (a native addon). tsc still builds dist/ for the library entry and the types.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
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

const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // react-devtools-core: ink imports it only with DEV=true, and it is not installed.
  external: ['better-sqlite3', 'react-devtools-core'],
  // react's CommonJS modules call require() for node builtins: give the ESM bundle a require.
  banner: { js: "import { createRequire as __scanctlCreateRequire } from 'node:module'; const require = __scanctlCreateRequire(import.meta.url);" },
  chunkNames: 'chunk-[hash]',
  jsx: 'automatic',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [zodEnglishOnly, noHttp2ForHonoServer],
});
