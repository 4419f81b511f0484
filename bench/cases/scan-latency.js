// One simulated scan end to end: the SDK flow of `scanctl scan simulate` (dist/sdk/simulate.js,
// in this process) against the built `scanctl serve`, from the start of the session mint to the
// moment the local receiver has answered 200 to that scan's scan.completed webhook. Each scan
// runs alone (the next one starts after the previous acknowledgement); p50 and p99 over them.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { loadFixtures, percentile, removeDir, ROOT, simulateOptions, startServe, tempDir } from '../lib.js';

/** A receiver in this process: answers 200 and notes when each scan's webhook was acknowledged. */
function startReceiver() {
  const acked = new Map();
  const waiters = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let scanId = null;
      try {
        scanId = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.scan_id ?? null;
      } catch {
        scanId = null;
      }
      res.on('finish', () => {
        const at = performance.now();
        acked.set(scanId, at);
        waiters.get(scanId)?.(at);
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        acknowledged(scanId, timeoutMs = 10_000) {
          if (acked.has(scanId)) return Promise.resolve(acked.get(scanId));
          return new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`no webhook for ${scanId} within ${timeoutMs} ms`)), timeoutMs);
            waiters.set(scanId, (at) => (clearTimeout(timer), done(at)));
          });
        },
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    );
  });
}

export default {
  id: 'scan-latency',
  title: 'One simulated scan, mint to acknowledged webhook (p50 / p99)',
  baseline: 'none (absolute)',
  target: { max: 20, unit: 'ms' },
  async run({ quick }) {
    const scans = quick ? 50 : 200;
    const warmup = 20;
    const { simulate } = await import(pathToFileURL(join(ROOT, 'dist', 'sdk', 'simulate.js')).href);
    const receiver = await startReceiver();
    const dir = tempDir();
    const fixtures = loadFixtures(dir, { webhookUrl: receiver.url });
    const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir });
    const options = simulateOptions(serve.baseUrl, fixtures, 'member_bench');
    const samples = [];
    try {
      // The first run enrolls the installation; every timed scan reuses it, as an installed app does.
      const [first] = await simulate(options, () => {});
      await receiver.acknowledged(first.scan_id);
      options.installationId = first.installation_id;
      for (let i = 0; i < warmup + scans; i++) {
        const started = performance.now();
        const [summary] = await simulate(options, () => {});
        if (summary.state !== 'recorded') throw new Error(`scan ${i} was not recorded: ${JSON.stringify(summary.refusal)}`);
        const acked = await receiver.acknowledged(summary.scan_id);
        if (i >= warmup) samples.push(acked - started);
      }
    } finally {
      await serve.stop();
      await receiver.close();
      removeDir(dir);
    }
    const p50 = percentile(samples, 50);
    const p99 = percentile(samples, 99);
    return {
      value: p50,
      unit: 'ms',
      display: `p50 ${p50.toFixed(1)} ms / p99 ${p99.toFixed(1)} ms`,
      note: `${scans} scans after ${warmup} warm-up, one at a time, each: mint, model manifest and 64 KiB download, model key, mesh fit, started, completed (enrolled installation), then wait for the receiver's 200 to its scan.completed; p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    };
  },
};
