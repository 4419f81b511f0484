import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../dist/cli/young-generation.js', import.meta.url));

/** A load that keeps a fifth of what it allocates for a while: V8 grows its young generation under it. */
const SCRIPT = `
const { boundYoungGeneration, youngGenerationBytes } = await import(process.argv[1]);
const live = [];
const load = async (rounds) => {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 20000; i++) { const o = { a: i, b: 'x' + i, c: [i, i] }; if (i % 5 === 0) live.push(o); }
    if (live.length > 100000) live.splice(0, 50000);
    await new Promise((resolve) => setImmediate(resolve));
  }
};
await load(5);
const before = youngGenerationBytes();
if (process.argv[2] === 'bound') boundYoungGeneration(4);
await load(300);
console.log(JSON.stringify({ before, after: youngGenerationBytes() }));
`;

const run = (mode: string) => {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, MODULE, mode], { encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { before: number; after: number };
};

/** serve's memory bound: once serving, the young generation stays the size it is (docs/performance.md). */
describe('the young generation bound', () => {
  it('frozen once serving: it keeps its size under a load that grows an unbound one', () => {
    const free = run('free');
    const bound = run('bound');
    expect(free.after).toBeGreaterThan(free.before);
    // Frozen where it was, or first let grow to 4 MiB when it was smaller.
    expect(bound.after).toBe(Math.max(bound.before, 4 * 1024 * 1024));
    expect(bound.after).toBeLessThan(free.after);
  });
});
