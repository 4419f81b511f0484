// The CI action's stop step: SIGTERM to the serve the start step left running (SCANCTL_SERVE_PID),
// which writes its whole state to SCANCTL_STATE_FILE (--export-on-exit) and exits; the action then
// uploads that file as an artifact. Tested by test/e2e/action-script.test.ts.
import { appendFileSync, existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const pid = Number(process.env.SCANCTL_SERVE_PID);
const stateFile = process.env.SCANCTL_STATE_FILE;
if (!Number.isInteger(pid) || pid <= 0 || !stateFile) {
  console.log('::error title=scanctl::no scanctl serve to stop: run the action without stop first (it sets SCANCTL_SERVE_PID)');
  process.exit(1);
}

const alive = () => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

if (alive()) process.kill(pid, 'SIGTERM');
// serve stops its dispatcher, writes the export and closes the port: well under a second.
for (const deadline = Date.now() + 30_000; alive(); await sleep(100)) {
  if (Date.now() > deadline) {
    process.kill(pid, 'SIGKILL');
    console.log(`::error title=scanctl::scanctl serve (pid ${pid}) did not stop within 30 s of SIGTERM`);
    process.exit(1);
  }
}
if (!existsSync(stateFile)) {
  console.log(`::error title=scanctl::scanctl serve stopped without writing ${stateFile}`);
  process.exit(1);
}
if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `state-file=${stateFile}\n`);
console.log(`scanctl stopped; its state is in ${stateFile}`);
