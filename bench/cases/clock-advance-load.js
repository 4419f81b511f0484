// `clock advance 60h` (what `scanctl clock advance 60h` sends) over 1,000 due deliveries to a receiver
// that takes 30 ms per POST and fails every third one, idle and then under a steady load: 30 resends a second queue new
// deliveries, from 3 s before the advance until it answers. The advance must end in time bounded by the work due in its window:
// what arrives meanwhile is first due at its end (it is not chased). Measured: the loaded advance's
// real time; the note gives the idle one and the steps each played.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { keepAliveAgent, prepareOutbox, removeDir, request, ROOT, startChildServer, startServe, tempDir } from '../lib.js';

const DELIVERIES = 1_000;
/** The load runs this long (real ms) before the advance starts, so retries are spread over the window. */
const LOAD_BEFORE_MS = 3_000;
const RESENDS_PER_SECOND = 30;
/** The receiver takes this long (real ms) per POST: each step of the advance costs a round trip. */
const RECEIVER_MS = 30;
/** An advance that has not answered by then is reported as not finishing. */
const GIVE_UP_MS = 120_000;

async function advance60h(serve) {
  const started = performance.now();
  let timer;
  const answer = await Promise.race([
    request(`${serve.baseUrl}/_scanctl/clock/advance`, { method: 'POST', json: { duration: '60h' }, agent: keepAliveAgent }),
    new Promise((resolve) => (timer = setTimeout(() => resolve(null), GIVE_UP_MS))),
  ]);
  clearTimeout(timer);
  if (answer === null) throw new Error(`clock advance 60h did not answer within ${GIVE_UP_MS / 1000} s`);
  if (answer.status !== 200) throw new Error(`clock advance answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { seconds: (performance.now() - started) / 1000, played: answer.body.played };
}

async function oneRun(loaded) {
  const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['fail-third', String(RECEIVER_MS)]);
  const dir = tempDir();
  try {
    const outbox = await prepareOutbox(dir, { receiverUrl: receiver.url, deliveries: DELIVERIES });
    const serve = await startServe(['--rate-limit', '0', '--fixtures', outbox.file], { dir });
    let resends = 0;
    let load = null;
    try {
      const events = (await request(`${serve.baseUrl}/_scanctl/webhooks/deliveries?limit=100`)).body.data.map((d) => d.event_id);
      if (loaded) {
        load = setInterval(() => {
          const id = events[resends++ % events.length];
          void request(`${serve.baseUrl}/_scanctl/webhooks/events/${id}/resend`, { method: 'POST', agent: keepAliveAgent }).catch(
            () => undefined,
          );
        }, 1000 / RESENDS_PER_SECOND);
        await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_MS));
      }
      const result = await advance60h(serve);
      return { ...result, resends };
    } finally {
      if (load) clearInterval(load);
      await serve.stop();
    }
  } finally {
    await receiver.stop();
    removeDir(dir);
  }
}

export default {
  id: 'clock-advance-load',
  title: '`clock advance 60h` over 1,000 deliveries (30 ms receiver, 1 POST in 3 fails), idle and under 30 resends/s',
  baseline: 'none (absolute)',
  target: { max: 20, unit: 's' },
  async run() {
    const idle = await oneRun(false);
    const loaded = await oneRun(true);
    return {
      value: loaded.seconds,
      unit: 's',
      note: `idle: ${idle.seconds.toFixed(2)} s (${idle.played} steps); under load: ${loaded.seconds.toFixed(2)} s (${loaded.played} steps, ${loaded.resends} resends queued, from 3 s before, first due at the advance's end)`,
    };
  },
};
