#!/usr/bin/env node
// An A/B of this tree against another build of scanctl (a checkout of main, built): the same bench
// cases run alternately from each tree, `--rounds` times, so both see the same machine load. Each
// case reports its figure as a ratio to a baseline measured in the same run; the A/B compares those
// ratios (B's over A's), which cancels most of the load. Ids are timed in this process, alternately.
//   node bench/ab.js --base /path/to/other/checkout [--rounds 3] [--only webhook-throughput,serve-ready,ids]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { median, ROOT } from './lib.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const base = option('--base');
if (!base) throw new Error('usage: node bench/ab.js --base /path/to/other/built/checkout [--rounds N] [--only a,b]');
const rounds = Number(option('--rounds', '3'));
const only = option('--only', 'webhook-throughput,serve-ready,ids').split(',');

/** One bench case run from `root`, quick: the ratio of its first figure to its same-run baseline. */
function caseRatio(root, id) {
  const out = execFileSync(process.execPath, [join(root, 'bench', 'run.js'), '--only', id, '--quick', '--no-write'], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => /^(- .*\.\.\. |\s+- )?\w[\w ]*: .* vs .*\(\d/.test(l));
  const ratio = line && /\((\d+(?:\.\d+)?)x?\)/.exec(line);
  if (!ratio) throw new Error(`no ratio in the output of ${id} from ${root}:\n${out}`);
  return Number(ratio[1]);
}

/** Microseconds per id: 200,000 ids of 24 base62 characters from `root`'s build. */
async function idMicros(root) {
  const { randomBase62 } = await import(pathToFileURL(join(root, 'dist', 'util', 'crypto.js')).href);
  const count = 200_000;
  const started = performance.now();
  for (let i = 0; i < count; i++) randomBase62(24);
  return ((performance.now() - started) * 1000) / count;
}

const rows = [];
for (const id of only) {
  const a = [];
  const b = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which tree goes first, so neither always runs on a warmer machine.
    const order = round % 2 === 0 ? [base, ROOT] : [ROOT, base];
    for (const root of order) {
      const value = id === 'ids' ? await idMicros(root) : caseRatio(root, id);
      (root === base ? a : b).push(value);
    }
  }
  rows.push({ id, a: median(a), b: median(b), all: { a, b } });
  console.log(`${id}: A ${a.map((v) => v.toFixed(3)).join(', ')} | B ${b.map((v) => v.toFixed(3)).join(', ')}`);
}
console.log('\n| Case | A (base) | B (this tree) | B / A |\n|---|---|---|---|');
for (const row of rows) console.log(`| ${row.id} | ${row.a.toFixed(3)} | ${row.b.toFixed(3)} | ${(row.b / row.a).toFixed(2)} |`);
