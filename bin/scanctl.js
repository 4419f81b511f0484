#!/usr/bin/env node
// Launcher: answers --version without loading anything else (start-up is part of the product),
// otherwise hands over to the built CLI: the esbuild bundle in dist/bundle/ (bin/bundle-cli.mjs),
// whose lazy chunks keep ink/react and the emulator out of commands that do not need them.
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  if (args.includes('serve') && !process.env.SCANCTL_NO_V8_SIZING) boundYoungGeneration((await import('node:perf_hooks')).PerformanceObserver);
  const { main } = await import('../dist/bundle/main.js');
  await main(process.argv);
}

/**
 * A long-running server's memory, bounded by design rather than by where the collector happens to
 * be: V8's young generation starts at 1 MiB (both semi-spaces) and may grow to 32 MiB under load.
 * It is let grow to YOUNG_GENERATION_BYTES, where most of the collection cost of a small young
 * generation is gone (CPU per POST /v1/sessions: 1 MiB ~200 us, 4 MiB ~165 us, 8 to 32 MiB ~160 us),
 * then frozen with --semi-space-growth-factor=1 (read whenever V8 would grow it; the max-size
 * flags are fixed when the process starts). Checked after each collection, until frozen.
 */
function boundYoungGeneration(PerformanceObserver) {
  const YOUNG_GENERATION_BYTES = Number(process.env.SCANCTL_YOUNG_GENERATION_MIB ?? 4) * 1024 * 1024;
  const youngBytes = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
  if (youngBytes() >= YOUNG_GENERATION_BYTES) {
    setFlagsFromString('--semi-space-growth-factor=1');
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (youngBytes() < YOUNG_GENERATION_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
