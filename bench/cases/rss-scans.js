// Resident memory of `scanctl serve` as scans accumulate: each scan is a session mint and one
// POST /v1/scan-events (status completed, as an offline scan syncing) from an enrolled
// installation, 32 at a time over keep-alive connections; every scan's scan.completed webhook goes
// to a receiver in another process. VmRSS of the serve process once the outbox has drained after
// 100,000 scans and again after 300,000: the second must stay within 1.15x of the first, and
// every reading under 150 MB. Three runs (each a fresh serve), all reported.
// SCANCTL_BENCH_RSS_SCANS=300000 and SCANCTL_BENCH_RSS_RUNS=3 change the count and the runs
// (the first reading is always taken at a third of the count).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import {
  enrollInstallation,
  loadFixtures,
  outboxCounts,
  removeDir,
  reportScans,
  ROOT,
  rssMb,
  startChildServer,
  startServe,
  tempDir,
  waitForOutboxDrained,
} from '../lib.js';

const CONCURRENCY = 32;

function peakMb(pid) {
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return kb / 1024;
}

const RATIO_GOAL = 1.15;
const MAX_MB = 150;

export default {
  id: 'rss-scans',
  title: 'Resident memory of serve as scans accumulate',
  baseline: 'none (absolute)',
  target: { max: MAX_MB, unit: 'MB' },
  async run({ quick }) {
    const total = Number(process.env.SCANCTL_BENCH_RSS_SCANS ?? (quick ? 30_000 : 300_000));
    const runs = Number(process.env.SCANCTL_BENCH_RSS_RUNS ?? (quick ? 1 : 3));
    const results = [];
    for (let r = 0; r < runs; r++) results.push(await oneRun(total));
    const k = (n) => `${Math.round(n / 1000)}k`;
    const first = k(results[0].checkpoints[0].scans);
    const last = k(total);
    const each = results
      .map(
        (x, i) =>
          `run ${i + 1}: ${x.checkpoints.map((c) => `${k(c.scans)} ${c.rss.toFixed(0)} MB`).join(', ')} (ready ${x.startRss.toFixed(0)} MB, peak ${x.peak.toFixed(0)} MB, ${x.rate} scans/s)`,
      )
      .join('; ');
    const worstRatio = Math.max(...results.map((x) => x.checkpoints[1].rss / x.checkpoints[0].rss));
    const worstMb = Math.max(...results.flatMap((x) => x.checkpoints.map((c) => c.rss)));
    const worstRun = results.find((x) => x.checkpoints[1].rss / x.checkpoints[0].rss === worstRatio);
    return {
      note: `${total.toLocaleString('en')} scans per run (mint + scan-events completed, ${CONCURRENCY} at a time) with their webhooks acknowledged; VmRSS after the outbox drained; ${each}`,
      rows: [
        {
          label: `VmRSS after ${last} scans vs after ${first} (worst of ${runs} runs)`,
          baseline: `VmRSS after ${first} scans, same run`,
          value: worstRun.checkpoints[1].rss,
          baselineValue: worstRun.checkpoints[0].rss,
          unit: 'MB',
          target: { ratio: 'max', value: RATIO_GOAL },
        },
        { label: `highest VmRSS of ${runs} runs`, value: worstMb, unit: 'MB' },
      ],
    };
  },
};

/** One fresh serve: `total` scans, VmRSS at a third of them and at the end (each after the outbox drained). */
export async function oneRun(scans, { env = {}, exe = false } = {}) {
  const checkpoints = [];
  const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']);
  const dir = tempDir();
  const fixtures = loadFixtures(dir, { webhookUrl: receiver.url });
  const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir, env, exe });
  const base = serve.baseUrl;
  let peak;
  let startRss;
  let seconds;
  try {
    startRss = rssMb(serve.child.pid);
    const installation = await enrollInstallation(base, fixtures);
    let reported = 0;
    const started = performance.now();
    for (const stop of [Math.round(scans / 3), scans]) {
      await reportScans(base, fixtures, installation, { from: reported, to: stop, tag: 'rss', concurrency: CONCURRENCY });
      reported = stop;
      await waitForOutboxDrained(base, { timeoutMs: 300_000, intervalMs: 100 });
      // VmRSS, and its anonymous part (the heap and the rest of the process's own memory; the rest is mapped files' pages).
      checkpoints.push({ scans: stop, rss: rssMb(serve.child.pid), anon: rssMb(serve.child.pid, 'RssAnon') });
    }
    seconds = (performance.now() - started) / 1000;
    peak = peakMb(serve.child.pid);
  } finally {
    await serve.stop();
    await receiver.stop();
  }
  try {
    const counts = await outboxCounts(join(dir, 'emulator.db'));
    if (counts.deliveries.succeeded !== scans + 1) throw new Error(`expected ${scans + 1} delivered webhooks: ${JSON.stringify(counts)}`);
  } finally {
    removeDir(dir);
  }
  return { checkpoints, startRss, peak, rate: Math.round(scans / seconds) };
}
