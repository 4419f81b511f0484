#!/usr/bin/env node
// Launcher: answers --version without loading anything else (start-up is part of the product),
// otherwise runs the bundled CLI, dist/bundle/cli.cjs (bin/bundle-cli.mjs), compiled with V8's code
// cache: Node 20 has no compile cache of its own, and compiling the bundle was a third of serve's
// start-up. CommonJS (bin/package.json), like the bundle: an ES module entry costs ~3 ms more.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { cli, launcher } = loadCli();
  cli.main(process.argv, launcher);
}

/** The command a command line names (global options and their values skipped), as commander reads it. */
function commandName(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--base-url' || argv[i] === '--app') i++;
    else if (!argv[i].startsWith('-')) return argv[i];
  }
  return undefined;
}

/**
 * Compiles the bundle with the code cache of this bundle, this Node and these flags, if one was
 * written (V8 checks it again and rejects one that does not fit). Without one, the command writes
 * it when its start-up is done: `serve` and `exec` once they serve (before the young generation
 * is frozen, which changes V8's flags and so the cache's key), other commands when they exit.
 * Two caches, for the two kinds of start-up. Where the folder cannot be written, nothing is kept.
 * Returns the bundle's exports and the launcher the bundle calls back: `warm()` once the
 * command's start-up is done.
 */
function loadCli() {
  const path = join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
  const { Script } = require('node:vm');
  const { createHash } = require('node:crypto');
  let source;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    process.stderr.write(`scanctl: cannot read its built CLI (${error.code ?? error.message}): run \`npm run build\` in ${join(__dirname, '..')}\n`);
    process.exit(1);
  }
  const kind = ['serve', 'exec'].includes(commandName(args)) ? 'serve' : 'cli';
  // V8 keys its check on the source's length only: the key holds a hash of the whole source.
  const key = createHash('sha1')
    .update(source)
    .update(`\0${process.version}\0${process.arch}\0${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.replace(/cli\.cjs$/, `cli.${kind}.${key}.v8cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The CommonJS wrapper, plus the import() a compiled script lacks (for tui.mjs, beside the bundle).
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __scanctlImport) {${source}\n})`, {
    filename: path,
    cachedData,
  });
  let written = cachedData !== undefined && !script.cachedDataRejected;
  const warm = () => {
    if (written) return;
    written = true;
    // Written aside and renamed: processes started together each write a whole file.
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData());
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only install: every start compiles, as without a cache.
      rmSync(temporary, { force: true });
    }
  };
  if (kind === 'cli') process.once('exit', warm);
  const module = { exports: {} };
  const importBeside = (specifier) => import(new URL(specifier, pathToFileURL(path)).href);
  script.runInThisContext()(module.exports, require('node:module').createRequire(path), module, path, dirname(path), importBeside);
  return { cli: module.exports, launcher: { warm } };
}
