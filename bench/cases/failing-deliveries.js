// 1,000 deliveries to a receiver that always answers 500: serve starts with them due, and
// `POST /_scanctl/clock/advance {"duration":"60h"}` (what `scanctl clock advance 60h` sends) plays
// every retry at its own virtual time. Timed from serve's ready line (the first attempts start
// then, in real time) until the advance has answered and nothing is pending or in flight; then the
// database must hold 17 recorded attempts for each delivery, every one `failed`.
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
} from '../lib.js';

const ATTEMPTS = 17;

export default {
  id: 'failing-deliveries',
  title: '1,000 always-failing deliveries x 17 attempts, played by `clock advance 60h`',
  baseline: 'none (absolute)',
  target: { max: 5, unit: 's' },
  async run() {
    const count = 1_000;
    const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['500']);
    const dir = tempDir();
    try {
      const outbox = await prepareOutbox(dir, { receiverUrl: receiver.url, deliveries: count });
      const serve = await startServe(['--rate-limit', '0', '--fixtures', outbox.file], { dir });
      const started = performance.now();
      let ended;
      let advance;
      try {
        advance = await request(`${serve.baseUrl}/_scanctl/clock/advance`, { method: 'POST', json: { duration: '60h' } });
        if (advance.status !== 200) throw new Error(`clock advance answered ${advance.status}: ${JSON.stringify(advance.body)}`);
        ended = await waitForOutboxDrained(serve.baseUrl, { intervalMs: 10 });
      } finally {
        await serve.stop();
      }
      const received = (await request(`${receiver.url}/stats`)).body.posts;
      const counts = await outboxCounts(outbox.dbPath);
      if (counts.deliveries.failed !== count || counts.attempts !== count * ATTEMPTS || counts.minAttempts !== ATTEMPTS) {
        throw new Error(`expected ${count} failed deliveries with ${ATTEMPTS} attempts each: ${JSON.stringify(counts)}`);
      }
      const seconds = (ended - started) / 1000;
      return {
        value: seconds,
        unit: 's',
        note: `${count} deliveries due at serve's start, receiver always 500; from the ready line through \`clock advance 60h\` (${advance.body.played} steps played) until nothing is pending or in flight; the database then holds ${counts.attempts} attempts and ${count} failed deliveries; the receiver saw ${received} POSTs`,
      };
    } finally {
      await receiver.stop();
      removeDir(dir);
    }
  },
};
