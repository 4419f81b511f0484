#!/usr/bin/env node
// Launcher: answers --version without loading anything else, turns on Node's compile cache in the
// user's cache folder, then runs the CLI's esbuild bundle (bin/bundle-cli.mjs), which starts serve
// about twice as fast as the same modules loaded one by one (docs/performance.md).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14) || (major === 23 && minor < 6)) {
  // better-sqlite3's prebuilt addon needs Node-API 10: an older Node crashes loading it.
  process.stderr.write(
    `scanctl: needs Node 22.14 or newer, 24 or 26; this is Node ${process.versions.node} (Node 20 reached its end of life on 2026-04-30)\n`,
  );
  process.exit(1);
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  enableCompileCache();
  const bundle = join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
  let cli;
  try {
    cli = require(bundle);
  } catch (error) {
    const unbuilt = error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(bundle);
    process.stderr.write(
      unbuilt
        ? `scanctl: its CLI is not built: run \`npm run build\` in ${join(__dirname, '..')}\n`
        : `scanctl: cannot load its CLI: ${String(error.message).split('\n')[0]}\n`,
    );
    process.exit(1);
  }
  cli.main(process.argv);
}

/**
 * Node's own compile cache, in the user's cache folder (NODE_COMPILE_CACHE overrides it;
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node checks each entry against the source and its
 * own version, and keeps going without one when the folder cannot be written.
 */
function enableCompileCache() {
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache !== 'function' || process.env.NODE_COMPILE_CACHE) return;
  const home = require('node:os').homedir();
  const base = process.env.XDG_CACHE_HOME || (home ? join(home, '.cache') : undefined);
  enableCompileCache(base ? join(base, 'scanctl', 'compile-cache') : undefined);
}
