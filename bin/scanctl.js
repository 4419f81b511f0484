#!/usr/bin/env node
// Launcher: answers --version without loading anything else (start-up is part of the product),
// otherwise hands over to the built CLI: the esbuild bundle in dist/bundle/ (bin/bundle-cli.mjs),
// whose lazy chunks keep ink/react and the emulator out of commands that do not need them.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  if (args.includes('serve') && !process.env.SCANCTL_NO_V8_SIZING) {
    // A long-running server's memory, bounded by design rather than by where the collector happens
    // to be: the young generation keeps its first 1 MiB semi-spaces instead of growing to 16 MiB
    // each (V8 reads this flag whenever it would grow them; the max-size flags are fixed at start).
    setFlagsFromString('--semi-space-growth-factor=1');
  }
  const { main } = await import('../dist/bundle/main.js');
  await main(process.argv);
}
