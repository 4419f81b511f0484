// Webhook deliveries per second from `scanctl serve` to a local receiver (another process), each
// attempt recorded in SQLite before it counts, against the same receiver fed by raw
// http.request over a keep-alive Agent with the keep-alive settings of the sender's pool
// (src/webhooks/sender.ts: up to 64 connections per origin, idle ones closed after 4 s) and 32
// requests in flight (the engine's global limit; to one receiver serve sends at most 16 at once).
// Both are timed warm: the baseline after 3,000 requests, serve after its first 3,000 deliveries
// (its start-up is serve-ready's figure); serve's throughput from its ready line is in the note.
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  outboxCounts,
  prepareOutbox,
  removeDir,
  request,
  ROOT,
  startChildServer,
  startServe,
  tempDir,
  waitForOutboxDrained,
  waitForReceiver,
} from '../lib.js';

const IN_FLIGHT = 32;
// serve's delivery path is warm (JIT, connections, SQLite's cache) after ~3,000 deliveries: the first
// 1,000 run at ~3,000/s, the next at ~5,000/s (bench/RESULTS.md, 2026-11-24).
const WARMUP = 3_000;

/** The baseline: `count` POSTs of a delivery-sized body with delivery-like headers, 32 in flight. */
async function rawDeliveries(url, payload, count) {
  // The keep-alive settings of the sender's pool (src/webhooks/sender.ts).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 4_000, scheduling: 'lifo' });
  const body = Buffer.from(payload);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'bench',
    'webhook-signature': `t=${Date.now()},v1=${'0'.repeat(64)}`,
    'webhook-id': 'evt_bench',
    'webhook-type': 'scan.completed',
  };
  const one = () =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers });
      req.on('response', (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`receiver answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        next += 1;
        await one();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return count / seconds;
}

export default {
  id: 'webhook-throughput',
  title: 'Webhook deliveries per second to a local receiver, every attempt recorded',
  baseline: "raw `http.request`, keep-alive Agent with the sender's settings, 32 in flight",
  target: { ratio: 'min', value: 0.75 },
  async run({ quick }) {
    const count = quick ? 5_000 : 20_000;
    const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']);
    const dir = tempDir();
    try {
      const outbox = await prepareOutbox(dir, { receiverUrl: receiver.url, deliveries: WARMUP + count });
      // Baseline first, warmed up, on the same receiver.
      await rawDeliveries(receiver.url, outbox.samplePayload, WARMUP);
      const baseline = await rawDeliveries(receiver.url, outbox.samplePayload, count);
      const before = (await request(`${receiver.url}/stats`)).body.posts;

      // serve starts with WARMUP + count deliveries due; the last `count` are timed: from the moment the
      // receiver has the first WARMUP until it has them all and the control plane shows none pending or in flight.
      const serve = await startServe(['--rate-limit', '0', '--fixtures', outbox.file], { dir });
      const ready = performance.now();
      let started;
      let timedFrom;
      let ended;
      try {
        // Watch the receiver (another process), then the emulator until every attempt is recorded.
        ({ at: started, posts: timedFrom } = await waitForReceiver(receiver.url, before + WARMUP, { intervalMs: 1, timeoutMs: 120_000 }));
        await waitForReceiver(receiver.url, before + WARMUP + count);
        ended = await waitForOutboxDrained(serve.baseUrl, { intervalMs: 2 });
      } finally {
        await serve.stop();
      }
      const seconds = (ended - started) / 1000;
      const timed = before + WARMUP + count - timedFrom;
      const fromReady = (WARMUP + count) / ((ended - ready) / 1000);
      const received = (await request(`${receiver.url}/stats`)).body.posts - before;
      const counts = await outboxCounts(outbox.dbPath);
      const total = WARMUP + count;
      if (counts.deliveries.succeeded !== total || counts.attempts !== total || received !== total) {
        throw new Error(
          `expected ${total} succeeded deliveries with one recorded attempt each: ${JSON.stringify(counts)}, receiver saw ${received}`,
        );
      }
      return {
        value: timed / seconds,
        baselineValue: baseline,
        unit: 'deliveries/s',
        note: `the last ${timed} of ${total} deliveries queued before serve started (the first ${WARMUP} warm it up), until the receiver has them all and the control plane shows none pending or in flight; from serve's ready line, all ${total}: ${Math.round(fromReady)}/s; afterwards the database holds ${total} succeeded deliveries and ${counts.attempts} attempts; baseline: ${count} POSTs of the same payload after ${WARMUP} warm-up`,
      };
    } finally {
      await receiver.stop();
      removeDir(dir);
    }
  },
};
