#!/usr/bin/env node
// scanctl's benchmarks: `npm run bench` (builds first) or `node bench/run.js [--quick] [--only id,id [--write]] [--no-write] [--strict]`.
// One run prints every figure, each as a ratio against a baseline measured in the same run (or
// against an absolute target), and writes the table and the machine to bench/RESULTS.md, one block per Node line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machine, ROOT } from './lib.js';
import coldStart from './cases/cold-start.js';
import serveReady from './cases/serve-ready.js';
import first201 from './cases/first-201.js';
import sessionsThroughput from './cases/sessions-throughput.js';
import webhookThroughput from './cases/webhook-throughput.js';
import failingDeliveries from './cases/failing-deliveries.js';
import scanLatency from './cases/scan-latency.js';
import rssScans from './cases/rss-scans.js';
import flatCosts from './cases/flat-costs.js';
import startEmulatorCase from './cases/start-emulator.js';
import execOverhead from './cases/exec-overhead.js';
import consoleDeliveries from './cases/console-deliveries.js';
import installTarball from './cases/install-tarball.js';
import clockAdvanceLoad from './cases/clock-advance-load.js';
import heapFlags from './cases/heap-flags.js';
import clockAdvanceScans from './cases/clock-advance-scans.js';
import checkpointRestore from './cases/checkpoint-restore.js';
import stalledSubscribers from './cases/stalled-subscribers.js';
import pytestRestore from './cases/pytest-restore.js';
import executable from './cases/executable.js';

const CASES = [
  coldStart,
  serveReady,
  first201,
  sessionsThroughput,
  webhookThroughput,
  failingDeliveries,
  scanLatency,
  rssScans,
  consoleDeliveries,
  startEmulatorCase,
  execOverhead,
  installTarball,
  flatCosts,
  clockAdvanceLoad,
  heapFlags,
  clockAdvanceScans,
  checkpointRestore,
  stalledSubscribers,
  pytestRestore,
  executable,
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const strict = args.includes('--strict');
const write = !args.includes('--no-write');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]?.split(',')) : null;

function fmt(value, unit) {
  if (value === undefined || value === null || Number.isNaN(value)) return '-';
  const digits = value >= 1000 ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** Judges a result against its target: a ratio to the same-run baseline, or an absolute bound. */
function judge(bench, result) {
  if (result.notMeasured)
    return { measured: result.notMeasured, baseline: '-', ratio: '-', target: describeTarget(bench.target), verdict: 'not measured yet' };
  // A row with `target: null` is there for comparison (a floor, the other way to run it): no verdict.
  const t = result.target === null ? null : (result.target ?? bench.target);
  if (t === null) {
    const ratio = result.baselineValue ? `${(result.value / result.baselineValue).toFixed(2)}x` : '-';
    return {
      measured: fmt(result.value, result.unit),
      baseline: fmt(result.baselineValue, result.unit),
      ratio,
      target: '-',
      verdict: 'for comparison',
    };
  }
  if (t.ratio) {
    const ratio = result.value / result.baselineValue;
    const pass = t.ratio === 'max' ? ratio <= t.value : ratio >= t.value;
    // Two decimals, or three where two would round across the target (0.748 is not 0.75).
    const rounded = Number(ratio.toFixed(2));
    const roundedPass = t.ratio === 'max' ? rounded <= t.value : rounded >= t.value;
    return {
      measured: fmt(result.value, result.unit),
      baseline: fmt(result.baselineValue, result.unit),
      ratio: `${ratio.toFixed(roundedPass === pass ? 2 : 3)}x`,
      target: describeTarget(t),
      verdict: pass ? 'pass' : 'MISSED',
    };
  }
  const pass = result.value <= t.max;
  return {
    measured: result.display ?? fmt(result.value, result.unit),
    baseline: '-',
    ratio: '-',
    target: describeTarget(t),
    verdict: pass ? 'pass' : 'MISSED',
  };
}

function describeTarget(t) {
  if (t.ratio) return `${t.ratio === 'max' ? 'at most' : 'at least'} ${t.value}x`;
  return `under ${t.max} ${t.unit}`;
}

const rows = [];
/** Extra Markdown a case adds to RESULTS.md (the flat-costs curve). */
const sections = [];
/** Files a case adds beside RESULTS.md (the flat-costs plot), written with it. */
const files = new Map();
/** The notes of cases that report several figures (their rows carry none). */
const caseNotes = [];
const info = machine();
console.log(
  `scanctl benchmarks${quick ? ' (quick)' : ''}: ${info.cpu}, ${info.cores} cores, ${info.memory_gb} GB, Node ${info.node}, commit ${info.commit}, load ${info.load_average.join(' ')}`,
);
for (const bench of CASES) {
  if (only && !only.has(bench.id)) continue;
  process.stdout.write(`- ${bench.title} ... `);
  let result;
  try {
    result = await bench.run({ quick });
  } catch (error) {
    result = { failed: String(error?.message ?? error).replace(/\s+/g, ' ') };
  }
  // A case may report several figures (result.rows), each judged against the case's target.
  const parts = result.rows && !result.failed ? result.rows : [result];
  if (parts === result.rows) console.log(result.note ? `[${result.note}]` : '');
  // How a case with several figures was measured is said once, for the case.
  if (parts === result.rows && result.note) caseNotes.push(`- ${bench.title}: ${result.note}`);
  for (const part of parts) {
    const named = part === result ? bench : { ...bench, title: `${bench.title}: ${part.label}`, baseline: part.baseline ?? bench.baseline };
    const row = part.failed
      ? {
          measured: `failed: ${part.failed.slice(0, 200)}`,
          baseline: '-',
          ratio: '-',
          target: describeTarget(bench.target),
          verdict: 'FAILED',
        }
      : judge(bench, part);
    rows.push({ bench: named, result: part, row });
    const line = `${row.verdict}: ${row.measured}${row.baseline !== '-' ? ` vs ${row.baseline} (${row.ratio})` : ''}${part.note ? ` [${part.note}]` : ''}`;
    console.log(part === result ? line : `  - ${part.label}: ${line}`);
  }
  if (result.section) sections.push(result.section);
  for (const [name, content] of Object.entries(result.files ?? {})) files.set(name, content);
}

const header = ['Benchmark', 'Baseline (same run)', 'Measured', 'Baseline', 'Ratio', 'Target', 'Result'];
const table = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map(
    ({ bench, row }) =>
      `| ${bench.title} | ${bench.baseline} | ${row.measured} | ${row.baseline} | ${row.ratio} | ${row.target} | ${row.verdict} |`,
  ),
].join('\n');
console.log(`\n${table}\n`);

// An --only run writes its own block (`--write`), beside the line's full run, which it never replaces.
if (write && (!only || args.includes('--write'))) {
  const notes = [...rows.filter((r) => r.result.note).map(({ bench, result }) => `- ${bench.title}: ${result.note}`), ...caseNotes];
  const major = Number(process.versions.node.split('.')[0]);
  const key = only ? `${major} ${[...only].join(',')}` : String(major);
  const block = [
    `<!-- node ${key} -->`,
    only ? `# Node ${major}: ${[...only].join(', ')} alone` : `# Node ${major}`,
    '',
    `Written by \`npm run bench\`${quick ? ' (--quick)' : ''} on ${info.date}.`,
    '',
    '## Machine',
    '',
    `- CPU: ${info.cpu}, ${info.cores} cores`,
    `- Memory: ${info.memory_gb} GB (${info.free_memory_gb} GB free at the start)`,
    `- Load average at the start: ${info.load_average.join(', ')}`,
    `- Node ${info.node}, ${info.os}`,
    `- Commit ${info.commit}`,
    '',
    '## Results',
    '',
    table,
    '',
    ...(notes.length ? ['## How each was measured', '', ...notes, ''] : []),
    ...sections.flatMap((section) => [section, '']),
    `<!-- /node ${key} -->`,
  ].join('\n');
  const file = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(file, withLineBlock(existsSync(file) ? readFileSync(file, 'utf8') : '', key, block));
  console.log(`wrote the Node ${key} table of bench/RESULTS.md`);
  for (const [name, content] of files) {
    writeFileSync(join(ROOT, 'bench', name), content);
    console.log(`wrote bench/${name}`);
  }
}

/**
 * RESULTS.md: a short header, then one block per Node line (its last full run on that line,
 * replaced as a whole), then the A/B tables of bench/ab.js ("# A/B ..."), which are kept as they are.
 */
function withLineBlock(previous, key, block) {
  const header = [
    '# Benchmark results',
    '',
    'One table per Node line, each from the last full `npm run bench` on that line. Each figure is measured against a',
    'baseline in the same run, so a slower or busier machine moves both sides alike; absolute targets are marked "none (absolute)".',
  ].join('\n');
  const ab = previous.indexOf('\n# A/B');
  const tail = ab >= 0 ? previous.slice(ab + 1) : '';
  const blocks = new Map();
  for (const match of previous.matchAll(/<!-- node (\d+(?: [\w,-]+)?) -->[\s\S]*?<!-- \/node \1 -->/g)) blocks.set(match[1], match[0]);
  blocks.set(key, block);
  const lines = [...blocks.keys()].sort((x, y) => x.localeCompare(y, 'en', { numeric: true })).map((k) => blocks.get(k));
  return `${[header, ...lines].join('\n\n').trimEnd()}\n${tail ? `\n${tail}` : ''}`;
}
if (strict && rows.some((r) => r.row.verdict === 'MISSED' || r.row.verdict === 'FAILED')) process.exitCode = 1;
