// @ts-check
// What a CI step runs under `scanctl exec`: the backend starts with the emulator's address and
// keys from its environment, a member scans, and the step fails unless the backend recorded it.
//   scanctl exec --seed 1 --forward http://127.0.0.1:4500/webhooks -- node examples/backend/ci-check.js
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startBackend } from './backend.js';

/** The scanctl launcher of the installed package (node_modules/scanctl), found as Node finds the package. */
const manifest = createRequire(import.meta.url).resolve('scanctl/package.json');
const scanctl = join(dirname(manifest), createRequire(import.meta.url)('scanctl/package.json').bin.scanctl);

const env = process.env;
const backend = await startBackend({
  serviceUrl: String(env.SCANCTL_BASE_URL),
  secretKey: String(env.SCANCTL_SECRET_KEY),
  webhookSecret: String(env.SCANCTL_WEBHOOK_SECRET),
  port: Number(env.BACKEND_PORT ?? 4500),
});
try {
  const minted = await fetch(`${backend.url}/scan-sessions`, { method: 'POST', headers: { 'x-member-id': 'member_ci' } });
  // The SDK's side, played by the installed CLI (the one `npx scanctl` runs); --wait returns once the webhooks are acknowledged.
  const { stdout } = await promisify(execFile)(process.execPath, [scanctl, 'scan', 'simulate', '--user', 'member_ci', '--wait', '--json']);
  // The scan's summary is the line whose object is "simulated_scan" (--wait adds a last "wait" line): picked by object, never by position.
  const scan =
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((line) => line.object === 'simulated_scan') ?? {};
  const recorded = backend.state.completedScans.get(scan.scan_id);
  console.log(JSON.stringify({ minted: minted.status, scan_id: scan.scan_id, recorded: recorded ?? null }));
  if (minted.status !== 201 || !recorded) process.exitCode = 1;
} finally {
  await backend.close();
}
