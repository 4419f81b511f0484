#!/usr/bin/env node
// Launcher: answers --version without loading anything else (start-up is part of the product),
// otherwise hands over to the built CLI: the esbuild bundle in dist/bundle/ (bin/bundle-cli.mjs),
// whose lazy chunks keep ink/react and the emulator out of commands that do not need them.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { main } = await import('../dist/bundle/main.js');
  await main(process.argv);
}
