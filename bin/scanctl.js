#!/usr/bin/env node
// Launcher: answers --version without loading anything else, turns on Node's compile cache in the
// user's cache folder, then runs the CLI's esbuild bundle (bin/bundle.mjs), which starts serve
// about twice as fast as the same modules loaded one by one (docs/performance.md).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
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
  boundHeapOfLongRunningCommands();
  enableCompileCache();
  const bundle = join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
  // Told by the file, not by require's error: MODULE_NOT_FOUND is also what a missing dependency of the
  // bundle throws, and only its message says which module it was.
  if (!existsSync(bundle)) {
    process.stderr.write(`scanctl: its CLI is not built: run \`npm run build\` in ${join(__dirname, '..')}\n`);
    process.exit(1);
  }
  let cli;
  try {
    cli = require(bundle);
  } catch (error) {
    process.stderr.write(`scanctl: cannot load its CLI: ${String(error.message).split('\n')[0]}\n`);
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

/**
 * `serve` and `exec` run the emulator for hours. Under load Node 24's V8 grows its young generation
 * to 128 MB and keeps old-generation slack it never returns (RSS ~300 MB for an 18 MB live heap), so
 * the launcher starts Node again, in the same process (process.execve: same pid, stdio and
 * signals), with Node's documented heap flags (docs/performance.md#memory). It does not when the
 * user gave heap flags of their own (node's arguments or NODE_OPTIONS), when SCANCTL_NODE_FLAGS
 * names other flags (empty: none), or where process.execve is missing (Node 22.14).
 */
function boundHeapOfLongRunningCommands() {
  let globalOptions;
  try {
    // The CLI's own reading of a command line (`scanctl --app X serve` is serve), built beside cli.cjs.
    globalOptions = require(join(__dirname, '..', 'dist', 'bundle', 'global-options.cjs'));
  } catch {
    return; // Not built: the CLI's load below says so.
  }
  const command = globalOptions.commandName(args);
  if (command !== 'serve' && command !== 'exec') return;
  const flags = (process.env.SCANCTL_NODE_FLAGS ?? globalOptions.DEFAULT_NODE_FLAGS.join(' ')).split(/\s+/).filter(Boolean);
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (flags.length === 0 || typeof process.execve !== 'function') return;
  if (given.some((arg) => /^--max-(semi|old)-space-size\b/.test(arg))) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, __filename, ...args], process.env);
}
