#!/usr/bin/env node
// An A/B of this tree against another build of scanctl (a checkout of main, built): the same bench
// cases run alternately from each tree, `--rounds` times, so both see the same machine load. Each
// case reports its figure as a ratio to a baseline measured in the same run; the A/B compares those
// ratios (B's over A's), which cancels most of the load; each case's own figure (its first number)
// is given beside it. Ids and the webhook sender alone (`sender`) are timed in this process, alternately.
//   node bench/ab.js --base /path/to/other/checkout [--rounds 3] [--only webhook-throughput,serve-ready,ids,sender]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { median, ROOT, startChildServer } from './lib.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const base = option('--base');
if (!base) throw new Error('usage: node bench/ab.js --base /path/to/other/built/checkout [--rounds N] [--only a,b]');
const rounds = Number(option('--rounds', '3'));
const only = option('--only', 'webhook-throughput,serve-ready,ids').split(',');

/** One bench case run from `root`, quick: the ratio of its first figure to its same-run baseline, and that figure. */
function caseRun(root, id) {
  const out = execFileSync(process.execPath, [join(root, 'bench', 'run.js'), '--only', id, '--quick', '--no-write'], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => /^(- .*\.\.\. |\s+- )?\w[\w ]*: .* vs .*\(\d/.test(l));
  const ratio = line && /\((\d+(?:\.\d+)?)x?\)/.exec(line);
  if (!ratio) throw new Error(`no ratio in the output of ${id} from ${root}:\n${out}`);
  return { ratio: Number(ratio[1]), figure: Number(/: (\d+(?:\.\d+)?)/.exec(line)[1]) };
}

/** Microseconds per id: 200,000 ids of 24 base62 characters from `root`'s build. */
async function idMicros(root) {
  const { randomBase62 } = await import(pathToFileURL(join(root, 'dist', 'util', 'crypto.js')).href);
  const count = 200_000;
  const started = performance.now();
  for (let i = 0; i < count; i++) randomBase62(24);
  return ((performance.now() - started) * 1000) / count;
}

/**
 * Deliveries per second of `root`'s WebhookSender alone: `count` sends of a delivery-sized body to
 * `url`, 32 in flight, timed after as many untimed (both trees' code runs in this process: warm each).
 */
async function senderRate(root, url, count = 20_000) {
  const { WebhookSender } = await import(pathToFileURL(join(root, 'dist', 'webhooks', 'sender.js')).href);
  const sender = new WebhookSender();
  const body = Buffer.from(
    JSON.stringify({ id: 'evt_bench', type: 'scan.completed', data: { scan_id: 'scan_bench', x: 'y'.repeat(600) } }),
  );
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'bench',
    'webhook-id': 'evt_bench',
    'webhook-type': 'scan.completed',
  };
  const signal = new AbortController().signal;
  const sends = async (n) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (; next < n; next++) {
          const out = await sender.send({ url: `${url}/hook`, headers, body, timeoutMs: 10_000, signal });
          if (out.status !== 200) throw new Error(`a send from ${root}: ${JSON.stringify(out)}`);
        }
      }),
    );
  };
  try {
    await sends(count);
    const started = performance.now();
    await sends(count);
    return count / ((performance.now() - started) / 1000);
  } finally {
    await sender.close();
  }
}

const receiver = only.includes('sender') ? await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']) : null;
const rows = [];
try {
  for (const id of only) {
    const a = [];
    const b = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which tree goes first, so neither always runs on a warmer machine.
      const order = round % 2 === 0 ? [base, ROOT] : [ROOT, base];
      for (const root of order) {
        const value =
          id === 'ids'
            ? { ratio: await idMicros(root) }
            : id === 'sender'
              ? { ratio: await senderRate(root, receiver.url) }
              : caseRun(root, id);
        (root === base ? a : b).push(value);
      }
    }
    const ratios = { a: a.map((v) => v.ratio), b: b.map((v) => v.ratio) };
    const figures = a[0].figure === undefined ? null : { a: median(a.map((v) => v.figure)), b: median(b.map((v) => v.figure)) };
    rows.push({ id, a: median(ratios.a), b: median(ratios.b), figures });
    const list = (values) => values.map((v) => v.ratio.toFixed(3) + (v.figure === undefined ? '' : ` (${v.figure})`)).join(', ');
    console.log(`${id}: A ${list(a)} | B ${list(b)}`);
  }
} finally {
  await receiver?.stop();
}
console.log('\n| Case | A (base) | B (this tree) | B / A | figure: A, B median (B / A) |\n|---|---|---|---|---|');
for (const row of rows) {
  const figures = row.figures ? `${row.figures.a}, ${row.figures.b} (${(row.figures.b / row.figures.a).toFixed(2)})` : '-';
  console.log(`| ${row.id} | ${row.a.toFixed(3)} | ${row.b.toFixed(3)} | ${(row.b / row.a).toFixed(2)} | ${figures} |`);
}
