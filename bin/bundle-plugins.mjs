// esbuild's plugins and options shared by the npm package's bundles (bin/bundle.mjs) and the single
// executable's (bin/build-exe.mjs).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * zod exports every locale (about 65 modules, a third of its size) through z.locales; scanctl
 * uses none but English, which zod registers itself. Only en stays in the bundle.
 */
export const zodEnglishOnly = {
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
export const noHttp2ForHonoServer = {
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
export const tuiSeparate = {
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
export const verifyShared = {
  name: 'verify-shared',
  setup(b) {
    b.onResolve({ filter: /[\\/]verify\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path) === join(root, 'src', 'verify.js') ? { path: '../verify.js', external: true } : undefined,
    );
  },
};
