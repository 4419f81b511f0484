// Webhook deliveries per second from `scanctl serve` to a local receiver (another process), each
// attempt recorded in SQLite before it counts, against the same receiver fed by raw
// http.request over a keep-alive agent with 32 requests in flight (the engine's own concurrency).
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { outboxCounts, prepareOutbox, removeDir, request, ROOT, startChildServer, startServe, tempDir, waitForOutboxDrained, waitForReceiver } from '../lib.js';

const IN_FLIGHT = 32;

/** The baseline: `count` POSTs of a delivery-sized body with delivery-like headers, 32 in flight. */
async function rawDeliveries(url, payload, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
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
  baseline: 'raw `http.request`, keep-alive agent, 32 in flight',
  target: { ratio: 'min', value: 0.75 },
  async run({ quick }) {
    const count = quick ? 3_000 : 10_000;
    const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']);
    const dir = tempDir();
    try {
      const outbox = await prepareOutbox(dir, { receiverUrl: receiver.url, deliveries: count });
      // Baseline first, warmed up, on the same receiver.
      await rawDeliveries(receiver.url, outbox.samplePayload, 1_000);
      const baseline = await rawDeliveries(receiver.url, outbox.samplePayload, count);
      const before = (await request(`${receiver.url}/stats`)).body.posts;

      // serve starts with `count` deliveries due: from its ready line, until none is pending or in flight.
      const serve = await startServe(['--rate-limit', '0', '--fixtures', outbox.file], { dir });
      const started = performance.now();
      let ended;
      try {
        // Watch the receiver (another process) until every POST arrived, then the emulator until every attempt is recorded.
        await waitForReceiver(receiver.url, before + count);
        ended = await waitForOutboxDrained(serve.baseUrl, { intervalMs: 2 });
      } finally {
        await serve.stop();
      }
      const seconds = (ended - started) / 1000;
      const received = (await request(`${receiver.url}/stats`)).body.posts - before;
      const counts = await outboxCounts(outbox.dbPath);
      if (counts.deliveries.succeeded !== count || counts.attempts !== count || received !== count) {
        throw new Error(`expected ${count} succeeded deliveries with one recorded attempt each: ${JSON.stringify(counts)}, receiver saw ${received}`);
      }
      return {
        value: count / seconds,
        baselineValue: baseline,
        unit: 'deliveries/s',
        note: `${count} deliveries queued before serve started, timed from its ready line until the receiver has them all and the control plane shows none pending or in flight; afterwards the database holds ${count} succeeded deliveries and ${counts.attempts} attempts; baseline: ${count} POSTs of the same payload after 1,000 warm-up`,
      };
    } finally {
      await receiver.stop();
      removeDir(dir);
    }
  },
};
