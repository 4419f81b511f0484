// Resident memory of `scanctl serve` after 100,000 scans: each scan is a session mint and one
// POST /v1/scan-events (status completed, as an offline scan syncing) from an enrolled
// installation, 32 at a time over keep-alive connections; every scan's scan.completed webhook goes
// to a receiver in another process. Once the outbox has drained, VmRSS of the serve process.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { loadFixtures, outboxCounts, removeDir, request, ROOT, rssMb, startChildServer, startServe, tempDir, waitForOutboxDrained } from '../lib.js';

const CONCURRENCY = 32;

function peakMb(pid) {
  const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return kb / 1024;
}

export default {
  id: 'rss-100k',
  title: 'Resident memory of serve after 100,000 scans',
  baseline: 'none (absolute)',
  target: { max: 150, unit: 'MB' },
  async run({ quick }) {
    const scans = quick ? 20_000 : 100_000;
    const { simulate } = await import(pathToFileURL(join(ROOT, 'dist', 'sdk', 'simulate.js')).href);
    const receiver = await startChildServer(join(ROOT, 'bench', 'receiver.js'), ['200']);
    const dir = tempDir();
    const fixtures = loadFixtures(dir, { webhookUrl: receiver.url });
    const app = JSON.parse(readFileSync(fixtures.file, 'utf8')).apps[0];
    const serve = await startServe(['--rate-limit', '0', '--fixtures', fixtures.file], { dir });
    const base = serve.baseUrl;
    const auth = { authorization: `Bearer ${fixtures.testSecret}` };
    let rss;
    let peak;
    let startRss;
    let seconds;
    try {
      startRss = rssMb(serve.child.pid);
      // One enrolled installation (and the model version) through the simulated SDK.
      const [first] = await simulate(
        {
          baseUrl: base, secretKey: fixtures.testSecret, hostUserRef: 'member_0', outcome: 'completed', count: 1, offlineLateMs: null, result: {},
          noScope: false, duplicateReport: false, uploadRetries: 0, installationId: null, reinstall: false,
          bundleId: app.bundle_id, teamId: app.team_id, appVersion: '1.0.0',
        },
        () => {},
      );
      const installation = first.installation_id;
      const modelVersion = first.steps.find((s) => s.step === 'model').model_version;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < scans) {
            const i = next++;
            const member = `member_${i % 1000}`;
            const minted = await request(`${base}/v1/sessions`, { method: 'POST', headers: auth, json: { host_user_ref: member } });
            if (minted.status !== 201) throw new Error(`mint answered ${minted.status}: ${JSON.stringify(minted.body)}`);
            const reported = await request(`${base}/v1/scan-events`, {
              method: 'POST',
              headers: { authorization: `Bearer ${minted.body.session_token}`, 'idempotency-key': `idem_${i}` },
              json: { installation_id: installation, scan_id: `scn_rss${i}`, status: 'completed', occurred_at: new Date().toISOString(), model_version: modelVersion },
            });
            if (reported.status !== 201) throw new Error(`scan event answered ${reported.status}: ${JSON.stringify(reported.body)}`);
          }
        }),
      );
      await waitForOutboxDrained(base, { timeoutMs: 300_000, intervalMs: 100 });
      seconds = (performance.now() - started) / 1000;
      rss = rssMb(serve.child.pid);
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
    return {
      value: rss,
      unit: 'MB',
      note: `${scans.toLocaleString('en')} scans (mint + scan-events completed, ${CONCURRENCY} at a time, ${Math.round(scans / seconds)} scans/s including their webhooks) and ${scans.toLocaleString('en')} acknowledged webhooks; VmRSS ${rss.toFixed(0)} MB after the outbox drained (${startRss.toFixed(0)} MB at the ready line, peak VmHWM ${peak.toFixed(0)} MB)${quick ? '; --quick: 20,000 scans, not 100,000' : ''}`,
    };
  },
};
