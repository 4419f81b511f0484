import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MIB = 1024 * 1024;

/**
 * A long-running server's memory, bounded by design rather than by where the collector happens to
 * be: V8's young generation starts at 1 MiB and may grow to 32 MiB under load. Called once the
 * emulator serves, this freezes it with --semi-space-growth-factor=1 (read whenever V8 would grow
 * it; the max-size flags are fixed when the process starts) at the size start-up left it (8 MiB
 * on these machines), or, when that is below `limitMib`, after it has grown to `limitMib`, where
 * most of the collection cost of a small young generation is gone (CPU per POST /v1/sessions:
 * 1 MiB ~200 us, 4 MiB ~165 us, 8 to 32 MiB ~160 us). Not from the start of the process: a young
 * generation held at 4 MiB while the bundle loads costs start-up ~17 ms in extra collections.
 */
export function boundYoungGeneration(limitMib: number): void {
  const limit = limitMib * MIB;
  const freeze = () => setFlagsFromString('--semi-space-growth-factor=1');
  if (youngGenerationBytes() >= limit) return freeze();
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < limit) return;
    freeze();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
