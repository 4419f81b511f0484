import { createRequire } from 'node:module';

/**
 * Loads undici from node_modules, at the first send, so the CLI bundle does not carry it. A module of
 * its own because the single executable's build (bin/build-exe.mjs) replaces it with a `require`
 * that esbuild bundles: the executable has no node_modules.
 */
export function loadUndici(): typeof import('undici') {
  const load: (id: 'undici') => typeof import('undici') = createRequire(import.meta.url);
  return load('undici');
}
