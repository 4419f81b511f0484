// @ts-check
// What a CI step runs under `scanctl exec`: the backend starts with the emulator's address and
// keys from its environment, a member scans, and the step fails unless the backend recorded it.
//   scanctl exec --seed 1 --forward http://127.0.0.1:4500/webhooks -- node examples/backend/ci-check.js
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startBackend } from './backend.js';

const env = process.env;
const backend = await startBackend({
  serviceUrl: String(env.SCANCTL_BASE_URL),
  secretKey: String(env.SCANCTL_SECRET_KEY),
  webhookSecret: String(env.SCANCTL_WEBHOOK_SECRET),
  port: Number(env.BACKEND_PORT ?? 4500),
});
try {
  const minted = await fetch(`${backend.url}/scan-sessions`, { method: 'POST', headers: { 'x-member-id': 'member_ci' } });
  // The SDK's side, played by the CLI (installed projects run `npx scanctl`); --wait returns once the webhooks are acknowledged.
  const scanctl = fileURLToPath(new URL('../../bin/scanctl.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [scanctl, 'scan', 'simulate', '--user', 'member_ci', '--wait', '--json']);
  const scan = JSON.parse(stdout.split('\n')[0] ?? '{}');
  const recorded = backend.state.completedScans.get(scan.scan_id);
  console.log(JSON.stringify({ minted: minted.status, scan_id: scan.scan_id, recorded: recorded ?? null }));
  if (minted.status !== 201 || !recorded) process.exitCode = 1;
} finally {
  await backend.close();
}
