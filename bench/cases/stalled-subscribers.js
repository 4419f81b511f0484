// Stalled stream subscribers: 40 clients open the live delivery stream (`scanctl webhook listen`'s
// GET /_scanctl/webhooks/stream) and never read a byte, while 5,000 scans queue 5,000 webhooks
// that a receiver acknowledges. Each subscriber's unsent events are bounded (CHOICE-37: dropped past
// 256 KiB), so serve's VmRSS may grow by less than 40 MB over its reading before they connected;
// once they are gone it is within 1.1x of a serve that did the same work without them (measured in
// the same run, first), which says the memory came back: what remains is the work's, not theirs.
import { connect } from 'node:net';
import { join } from 'node:path';
import {
  enrollInstallation,
  loadFixtures,
  removeDir,
  reportScans,
  ROOT,
  rssMb,
  startChildServer,
  startServe,
  tempDir,
  waitForOutboxDrained,
} from '../lib.js';

const SUBSCRIBERS = 40;
const CONCURRENCY = 32;
const GROWTH_MB = 40;
const BACK_RATIO = 1.1;

export default {
  id: 'stalled-subscribers',
  title: 'Stalled stream subscribers: VmRSS of serve with 40 subscribers that never read, over 5,000 deliveries',
  baseline: 'VmRSS before the subscribers connected, same run',
  target: { max: GROWTH_MB, unit: 'MB' },
  async run({ quick }) {
    const deliveries = quick ? 1_000 : 5_000;
    const without = await oneServe(0, deliveries);
    const withThem = await oneServe(SUBSCRIBERS, deliveries);
    const growth = withThem.during - withThem.before;
    const mb = (x) =>
      `before ${x.before.toFixed(0)} MB, highest ${x.during.toFixed(0)} MB (sampled every 20 ms), after ${x.after.toFixed(0)} MB`;
    return {
      note: `${deliveries.toLocaleString('en')} scans with their scan.completed deliveries acknowledged by a receiver, after 1,000 to warm up, then 200 more after the subscribers were dropped; with ${SUBSCRIBERS} subscribers that never read: ${mb(withThem)}; the same work without them: ${mb(without)}`,
      rows: [
        {
          label: `growth of VmRSS while ${SUBSCRIBERS} subscribers stall (highest minus before)`,
          value: growth,
          unit: 'MB',
          display: `${growth.toFixed(1)} MB (${withThem.before.toFixed(0)} → ${withThem.during.toFixed(0)} MB; without them ${(without.during - without.before).toFixed(1)} MB)`,
        },
        {
          label: 'VmRSS once they are dropped, against the same work without them',
          baseline: 'a serve that did the same work without subscribers, same run',
          value: withThem.after,
          baselineValue: without.after,
          unit: 'MB',
          target: { ratio: 'max', value: BACK_RATIO },
        },
      ],
    };
  },
};

/** One fresh serve: warm up, the reading before, `subscribers` stalled streams over `deliveries` scans, then dropped. */
async function oneServe(subscribers, deliveries) {
  const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']);
  const dir = tempDir();
  const fixtures = loadFixtures(dir, { webhookUrl: receiver.url });
  const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir });
  const base = serve.baseUrl;
  const pid = serve.child.pid;
  const sockets = [];
  try {
    const scans = await scanReporter(base, fixtures);
    // Warm up with the same work, so that the reading before is of a serve that has done it.
    await scans(1_000, 'warm');
    await waitForOutboxDrained(base, { timeoutMs: 120_000, intervalMs: 50 });
    const before = rssMb(pid);
    for (let i = 0; i < subscribers; i++) sockets.push(await stalledSubscriber(base, fixtures.appId));
    let during = before;
    const sampler = setInterval(() => (during = Math.max(during, rssMb(pid))), 20);
    await scans(deliveries, 'load');
    await waitForOutboxDrained(base, { timeoutMs: 300_000, intervalMs: 50 });
    clearInterval(sampler);
    during = Math.max(during, rssMb(pid));
    for (const socket of sockets) socket.destroy();
    await scans(200, 'after');
    await waitForOutboxDrained(base, { timeoutMs: 120_000, intervalMs: 50 });
    return { before, during, after: rssMb(pid) };
  } finally {
    for (const socket of sockets) socket.destroy();
    await serve.stop();
    await receiver.stop();
    removeDir(dir);
  }
}

/** A subscriber that sends its GET, checks the stream's 200, and then reads nothing: the kernel's buffers fill, then serve's queue. */
function stalledSubscriber(base, appId) {
  const url = new URL(`/_scanctl/webhooks/stream?app_id=${encodeURIComponent(appId)}`, base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.once('error', reject);
    socket.once('data', (head) => {
      socket.pause();
      if (String(head).startsWith('HTTP/1.1 200')) resolve(socket);
      else reject(new Error(`the stream answered ${String(head).split('\r\n')[0]}`));
    });
  });
}

/** Scans with acknowledged webhooks from one enrolled installation, `CONCURRENCY` at a time: `scans(count, tag)`. */
async function scanReporter(base, fixtures) {
  const installation = await enrollInstallation(base, fixtures);
  return (count, tag) => reportScans(base, fixtures, installation, { to: count, tag, members: 100, concurrency: CONCURRENCY });
}
