// Costs as the data grows: databases holding 10^4, 10^5 and 10^6 rows per table (scans, sessions,
// idempotency keys, events, deliveries, attempts; a year of history) are built with direct SQL
// (bench/flat/worker.js prepare), then each operation is timed on each (worker.js measure, a fresh
// process per size and pass) and reported as its cost at the largest size over its cost at 10^4.
// Its curve goes to bench/flat-costs.svg and its table to RESULTS.md (run.js writes both, after a full run).
// SCANCTL_BENCH_FLAT_SIZES=10000,100000 picks the sizes; SCANCTL_BENCH_FLAT_DIR=<dir> keeps the
// prepared databases there between runs (they are rebuilt only when missing).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ratioPlot } from '../flat/plot.js';
import { removeDir, ROOT, tempDir } from '../lib.js';

const WORKER = join(ROOT, 'bench', 'flat', 'worker.js');
const GOAL = 1.5;
const OPERATIONS = [
  { id: 'mint', label: 'POST /v1/sessions', unit: 'ms' },
  { id: 'scan-event', label: 'POST /v1/scan-events (completed, queues a webhook)', unit: 'ms' },
  { id: 'claim', label: 'claim 32 due deliveries', unit: 'ms' },
  { id: 'usage', label: 'GET usage (every app and month)', unit: 'ms' },
  { id: 'scans-list', label: 'scans list, first page of 100', unit: 'ms' },
  { id: 'deliveries-list', label: 'webhook deliveries, first page of 100', unit: 'ms' },
  { id: 'chaos', label: 'chaos verdict of a new delivery', unit: 'ms' },
  { id: 'export', label: 'state export, streamed (per 1,000 rows)', unit: 'ms' },
];

function worker(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').at(-1)))
        : reject(new Error(`worker ${args[0]} ${args.at(-1)} exited ${code}: ${err.trim().split('\n').slice(0, 3).join(' ')}`)),
    );
  });
}

const sizeLabel = (n) => `10^${Math.round(Math.log10(n))}`;
const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));

export default {
  id: 'flat-costs',
  title: 'Cost per operation at 10^6 rows vs 10^4',
  baseline: 'the same operation on a database of 10^4 rows',
  target: { ratio: 'max', value: GOAL },
  async run({ quick }) {
    const sizes = (process.env.SCANCTL_BENCH_FLAT_SIZES ?? (quick ? '10000,100000' : '10000,100000,1000000')).split(',').map(Number);
    const keep = process.env.SCANCTL_BENCH_FLAT_DIR;
    const dir = keep ?? tempDir();
    const costs = sizes.map(() => ({}));
    const exportDetail = sizes.map(() => null);
    const failures = sizes.map(() => ({}));
    try {
      const dbs = [];
      for (const size of sizes) {
        const db = join(dir, `flat-${size}.db`);
        if (!keep || !existsSync(db)) await worker(['prepare', db, String(size)]);
        dbs.push(db);
      }
      // Two passes over the sizes, interleaved; each operation keeps its lower median of the two.
      const passes = quick ? 1 : 2;
      for (let pass = 0; pass < passes; pass++) {
        for (let s = 0; s < sizes.length; s++) {
          // The export reads every row (minutes at 10^6): once, in the first pass.
          const batches = [OPERATIONS.filter((o) => o.id !== 'export').map((o) => o.id), ...(pass === 0 ? [['export']] : [])];
          for (const ops of batches) {
            let result;
            try {
              result = await worker(['measure', dbs[s], ops.join(',')]);
            } catch (error) {
              for (const op of ops) failures[s][op] = error.message;
              continue;
            }
            for (const op of ops) if (result[op] !== undefined) costs[s][op] = Math.min(costs[s][op] ?? Infinity, result[op]);
            if (result.export_detail) exportDetail[s] = result.export_detail;
          }
        }
      }
    } finally {
      if (!keep) removeDir(dir);
    }

    const last = sizes.length - 1;
    const rows = OPERATIONS.map((op) => {
      const failed = failures[last][op.id] ?? failures[0][op.id];
      if (failed && costs[last][op.id] === undefined) return { label: op.label, failed: `at ${sizeLabel(sizes[last])}: ${failed}` };
      return { label: op.label, value: costs[last][op.id], baselineValue: costs[0][op.id], unit: op.unit };
    });
    const ratio = (s, op) => (costs[s][op] !== undefined && costs[0][op] ? costs[s][op] / costs[0][op] : null);
    // Written with RESULTS.md by run.js (not by --no-write or --only).
    const plot = ratioPlot({
      title: 'Cost per operation as the database grows (1.0 = cost at 10^4 rows)',
      sizes,
      goal: GOAL,
      series: OPERATIONS.map((op) => ({ label: op.label, ratios: sizes.map((_, s) => ratio(s, op.id)) })),
    });
    const head = ['Operation', ...sizes.map((n) => `${sizeLabel(n)} (ms)`), ...sizes.slice(1).map((n) => `${sizeLabel(n)} / 10^4`)];
    const table = [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...OPERATIONS.map(
        (op) =>
          `| ${op.label} | ${sizes.map((_, s) => (failures[s][op.id] && costs[s][op.id] === undefined ? 'failed' : fmt(costs[s][op.id]))).join(' | ')} | ${sizes
            .slice(1)
            .map((_, i) => {
              const r = ratio(i + 1, op.id);
              return r === null ? '-' : `${r.toFixed(2)}x`;
            })
            .join(' | ')} |`,
      ),
    ].join('\n');
    const exports = exportDetail.map((d, s) =>
      d
        ? `${sizeLabel(sizes[s])}: ${d.rows.toLocaleString('en')} rows, ${(d.bytes / 2 ** 20).toFixed(1)} MB in ${(d.ms / 1000).toFixed(2)} s, first byte after ${d.first_byte_ms?.toFixed(1)} ms, RSS growth ${d.rss_growth_mb.toFixed(0)} MB`
        : `${sizeLabel(sizes[s])}: ${failures[s].export ?? 'not measured'}`,
    );
    console.log(`\n${table}\n  state export: ${exports.join('; ')}`);
    return {
      rows,
      files: { 'flat-costs.svg': plot },
      note: `databases of ${sizes.map(sizeLabel).join(', ')} rows per table; median of each operation in a fresh process per size, ${quick ? 'one pass' : 'the lower of two interleaved passes'}`,
      section: [
        '## Flat costs: the curve',
        '',
        `Median cost of one operation (ms) on databases holding ${sizes.map(sizeLabel).join(', ')} rows in each of scans, sessions, idempotency keys, events, deliveries and attempts (a year of history, 1,000 deliveries due). Goal: at most ${GOAL}x the cost at 10^4. Plot: [flat-costs.svg](flat-costs.svg).`,
        '',
        table,
        '',
        `State export: ${exports.join('; ')}.`,
      ].join('\n'),
    };
  },
};
