// `clock advance 24h` while three clients report scans at full speed (each a session mint and a
// completed scan event, whose scan.completed webhook goes to a receiver that answers in 50 ms and
// refuses 1 POST in 20 with a 503). The advance must answer: what arrives during it is first due at
// its end (docs/webhooks.md), so it plays the retries already due in its window and ends. Measured:
// the advance's real time (goal: 10 s); the note says how many scans came in meanwhile.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  enrollInstallation,
  keepAliveAgent,
  loadFixtures,
  removeDir,
  request,
  ROOT,
  startChildServer,
  startServe,
  tempDir,
} from '../lib.js';

const CLIENTS = 3;
/** Scans reported before the advance starts, so retries are pending across the window. */
const WARM_SCANS = 600;
const GIVE_UP_MS = Number(process.env.SCANCTL_BENCH_GIVE_UP_MS ?? 60_000);

export default {
  id: 'clock-advance-scans',
  title: '`clock advance 24h` while 3 clients report scans at full speed (50 ms receiver, 5% refused)',
  baseline: 'none (absolute)',
  target: { max: 10, unit: 's' },
  async run() {
    const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['fail-twentieth', '50']);
    const dir = tempDir();
    const fixtures = loadFixtures(dir, { webhookUrl: receiver.url });
    const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir });
    const base = serve.baseUrl;
    const auth = { authorization: `Bearer ${fixtures.testSecret}` };
    let stop = false;
    let scans = 0;
    let failures = 0;
    let firstFailure = null;
    try {
      const { installationId, modelVersion } = await enrollInstallation(base, fixtures);
      const oneScan = async () => {
        const i = scans++;
        const minted = await request(`${base}/v1/sessions`, {
          method: 'POST',
          headers: auth,
          json: { host_user_ref: `member_${i % 100}` },
          agent: keepAliveAgent,
        });
        const reported = await request(`${base}/v1/scan-events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${minted.body.session_token}`, 'idempotency-key': `idem_${i}` },
          json: {
            installation_id: installationId,
            scan_id: `scn_adv${i}`,
            status: 'completed',
            occurred_at: new Date().toISOString(),
            model_version: modelVersion,
          },
          agent: keepAliveAgent,
        });
        // A session minted just before the clock jumps 24 h has expired when its scan arrives (SES-*): not a failure.
        const expired = reported.status === 401 && reported.body?.error?.code === 'session_token_expired';
        if (reported.status !== 201 && !expired) {
          failures += 1;
          firstFailure ??= `${minted.status} ${reported.status} ${JSON.stringify(reported.body)}`;
        }
      };
      const clients = Array.from({ length: CLIENTS }, async () => {
        while (!stop) await oneScan();
      });
      while (scans < WARM_SCANS) await new Promise((resolve) => setTimeout(resolve, 50));
      const before = scans;
      const started = performance.now();
      let timer;
      const answer = await Promise.race([
        request(`${base}/_scanctl/clock/advance`, { method: 'POST', json: { duration: '24h' }, agent: keepAliveAgent }),
        new Promise((resolve) => (timer = setTimeout(() => resolve(null), GIVE_UP_MS))),
      ]);
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      stop = true;
      await Promise.all(clients);
      if (answer === null) throw new Error(`clock advance 24h did not answer within ${GIVE_UP_MS / 1000} s`);
      if (answer.status !== 200) throw new Error(`clock advance answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (failures > 0) throw new Error(`${failures} scan reports were not accepted, the first: ${firstFailure}`);
      return {
        value: seconds,
        unit: 's',
        note: `${before} scans before the advance, ${scans - before} during it (${CLIENTS} clients); ${answer.body.played} due moments played`,
      };
    } finally {
      stop = true;
      await serve.stop();
      await receiver.stop();
      removeDir(dir);
    }
  },
};
