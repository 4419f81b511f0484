// A/B of the heap flags the launcher gives serve and exec (bin/scanctl.js, DEFAULT_NODE_FLAGS) against
// V8's own sizing (SCANCTL_NODE_FLAGS=''), in the same run, rounds interleaved:
// - start-up: spawn to serve's ready line (median of the rounds);
// - throughput: POST /v1/sessions under 50 connections;
// - memory: VmRSS after the rss-scans load (a third of the scans, then all of them);
// - a state export of about 10^6 rows streamed from serve under the flags: a heap cap must not make it fail.
// SCANCTL_BENCH_HEAP_SCANS (default 60,000; 9,000 with --quick) and SCANCTL_BENCH_HEAP_EXPORT_ROWS (rows per
// table, six tables; default 170,000, 5,000 with --quick) change the sizes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cannon, loadFixtures, median, removeDir, ROOT, rssMb, startServe, tempDir } from '../lib.js';
import { oneRun } from './rss-scans.js';

const DEFAULTS = { label: "V8's own sizing", env: { SCANCTL_NODE_FLAGS: '' } };
const FLAGS = { label: "the launcher's heap flags", env: {} };
const ROUNDS = 5;

async function sessionsPerSecond(variant, seconds) {
  const dir = tempDir();
  const fixtures = loadFixtures(dir);
  const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir, env: variant.env });
  try {
    const run = (duration) =>
      cannon({
        url: `${serve.baseUrl}/v1/sessions`,
        method: 'POST',
        connections: 50,
        duration,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fixtures.testSecret}` },
        body: JSON.stringify({ host_user_ref: 'member_bench' }),
      });
    await run(1);
    const result = await run(seconds);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`sessions load was not all 2xx (${variant.label})`);
    return { rps: result.requests.average, rss: rssMb(serve.child.pid) };
  } finally {
    await serve.stop();
    removeDir(dir);
  }
}

function worker(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'flat', 'worker.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`flat worker ${args[0]} exited with ${code}`))));
  });
}

/** serve under the flags on a database of `rows` rows per table; GET /_scanctl/state read to its end. */
async function bigExport(rows) {
  const dir = tempDir();
  const db = join(dir, 'emulator.db');
  try {
    await worker(['prepare', db, String(rows)]);
    const serve = await startServe(['--rate-limit', '0', '--db', db], { dir, env: FLAGS.env });
    let peak = 0;
    try {
      const started = performance.now();
      const res = await fetch(`${serve.baseUrl}/_scanctl/state`);
      let bytes = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        peak = Math.max(peak, rssMb(serve.child.pid));
      }
      const seconds = (performance.now() - started) / 1000;
      if (res.status !== 200) throw new Error(`state export answered ${res.status}`);
      return { status: res.status, mb: bytes / 2 ** 20, seconds, peak };
    } finally {
      await serve.stop();
    }
  } finally {
    removeDir(dir);
  }
}

export default {
  id: 'heap-flags',
  title: "serve with the launcher's heap flags vs V8's own sizing",
  baseline: "the same serve with SCANCTL_NODE_FLAGS='' (V8's defaults), same run",
  target: { ratio: 'max', value: 1.15 },
  async run({ quick }) {
    const scans = Number(process.env.SCANCTL_BENCH_HEAP_SCANS ?? (quick ? 9_000 : 60_000));
    const exportRows = Number(process.env.SCANCTL_BENCH_HEAP_EXPORT_ROWS ?? (quick ? 5_000 : 170_000));
    const ready = { a: [], b: [] };
    const rps = { a: [], b: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, variant] of round % 2
        ? [
            ['b', FLAGS],
            ['a', DEFAULTS],
          ]
        : [
            ['a', DEFAULTS],
            ['b', FLAGS],
          ]) {
        const dir = tempDir();
        const serve = await startServe([], { dir, env: variant.env });
        ready[key].push(serve.readyMs);
        await serve.stop();
        removeDir(dir);
        if (round < 2) rps[key].push((await sessionsPerSecond(variant, quick ? 2 : 5)).rps);
      }
    }
    const rssDefaults = await oneRun(scans, { env: DEFAULTS.env });
    const rssFlags = await oneRun(scans, { env: FLAGS.env });
    const exported = await bigExport(exportRows);
    const k = (n) => `${Math.round(n / 1000)}k`;
    const readings = (r) => r.checkpoints.map((c) => `${k(c.scans)} ${c.rss.toFixed(0)} MB`).join(', ');
    return {
      note:
        `${ROUNDS} interleaved start-ups; sessions ${quick ? 2 : 5} s x 2 rounds each; rss-scans load of ${scans.toLocaleString('en')} scans: ` +
        `defaults ${readings(rssDefaults)}, flags ${readings(rssFlags)}; export of ${(exportRows * 6).toLocaleString('en')} rows under the flags: ` +
        `${exported.status}, ${exported.mb.toFixed(0)} MB in ${exported.seconds.toFixed(1)} s, serve's RSS at most ${exported.peak.toFixed(0)} MB`,
      rows: [
        {
          label: 'serve ready (ms), flags vs defaults',
          baseline: 'defaults, same run',
          value: median(ready.b),
          baselineValue: median(ready.a),
          unit: 'ms',
          target: { ratio: 'max', value: 1.15 },
        },
        {
          label: 'POST /v1/sessions (req/s), flags vs defaults',
          baseline: 'defaults, same run',
          value: median(rps.b),
          baselineValue: median(rps.a),
          unit: 'req/s',
          target: { ratio: 'min', value: 0.85 },
        },
        {
          label: `VmRSS after ${k(scans)} scans, flags vs defaults`,
          baseline: 'defaults, same run',
          value: rssFlags.checkpoints[1].rss,
          baselineValue: rssDefaults.checkpoints[1].rss,
          unit: 'MB',
          target: { ratio: 'max', value: 0.6 },
        },
        {
          // The export must complete (200, checked above) under the old-space limit the flags set.
          label: `state export of ~${k(exportRows * 6)} rows under the flags: serve's peak VmRSS`,
          value: exported.peak,
          unit: 'MB',
          target: { max: 1024, unit: 'MB' },
        },
      ],
    };
  },
};
