// The CI action's start step (action.yml): starts `scanctl serve` in the background, waits for its
// health route, and writes the environment contract (docs/environment.md) to $GITHUB_ENV for the
// job's later steps. Inputs come as INPUT_* variables; SCANCTL_CLI is how to run scanctl (set by
// install.sh). Plain Node, no dependency. Tested by test/e2e/action-script.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const input = (name) => (process.env[`INPUT_${name}`] ?? '').trim();
const cli = (process.env.SCANCTL_CLI || 'scanctl').split(' ').filter(Boolean);

function fail(message) {
  console.log(`::error title=scanctl::${message.replace(/\r?\n/g, ' ')}`);
  process.exit(1);
}

/** NAME=value lines for $GITHUB_ENV / $GITHUB_OUTPUT (a value is one line: the contract's always are). */
function append(file, values) {
  if (!file) fail('GITHUB_ENV and GITHUB_OUTPUT must be set: run this as a step of a GitHub Actions job');
  for (const [name, value] of Object.entries(values)) {
    if (/[\r\n]/.test(value)) fail(`${name} holds a line break`);
    appendFileSync(file, `${name}=${value}\n`);
  }
}

const dir = join(process.env.RUNNER_TEMP || process.cwd(), 'scanctl');
mkdirSync(dir, { recursive: true });
const stateFile = join(dir, 'scanctl-state.json');
const args = ['serve', '--json', '--port', input('PORT') || '7226', '--db', join(dir, 'scanctl.db'), '--export-on-exit', stateFile];
// serve runs in its own folder (its serve.json stays out of the workspace): the workspace's paths are made absolute.
if (input('FIXTURES')) args.push('--fixtures', resolve(input('FIXTURES')));
if (input('SEED')) args.push('--seed', input('SEED'));
if (input('CLOCK_START')) args.push('--clock-start', input('CLOCK_START'));

// stdout (the one ready line) and stderr go to files: serve outlives this step.
const out = join(dir, 'serve.out');
const log = join(dir, 'serve.log');
const stdout = openSync(out, 'w');
const stderr = openSync(log, 'w');
const serve = spawn(cli[0], [...cli.slice(1), ...args], { cwd: dir, detached: true, stdio: ['ignore', stdout, stderr] });
closeSync(stdout);
closeSync(stderr);
let exited = null;
serve.once('exit', (code) => (exited = code ?? 1));
serve.once('error', (error) => fail(`cannot run ${cli.join(' ')}: ${error.message}`));

// The ready line comes once the port is open (about a second); bounded so a hang fails the step.
let ready = null;
for (const deadline = Date.now() + 60_000; !ready; await sleep(100)) {
  const line = readFileSync(out, 'utf8').split('\n')[0];
  const first = line ? JSON.parse(line) : null;
  // Under --json a refusal is one error object on stdout instead of the ready line.
  if (first?.object === 'serve_ready') ready = first;
  else if (first?.object === 'error') fail(`scanctl serve: ${first.error.message}`);
  else if (exited !== null) fail(`scanctl serve exited ${exited}: ${readFileSync(log, 'utf8').trim()}`);
  else if (Date.now() > deadline) fail(`scanctl serve printed no ready line in 60 s: ${readFileSync(log, 'utf8').trim()}`);
}
// The health route says ready (database, fixtures, deliveries), as a later step will see it.
const waited = spawnSync(cli[0], [...cli.slice(1), 'wait', '--base-url', ready.base_url, '--timeout', '30s'], { encoding: 'utf8' });
if (waited.status !== 0) fail(`scanctl wait: ${waited.stderr.trim()}`);

append(process.env.GITHUB_ENV, { ...ready.env, SCANCTL_SERVE_PID: String(serve.pid), SCANCTL_STATE_FILE: stateFile });
append(process.env.GITHUB_OUTPUT, { 'base-url': ready.base_url, pid: String(serve.pid), 'state-file': stateFile, log });
serve.unref();
console.log(`scanctl ${ready.version} ready at ${ready.base_url} (pid ${serve.pid}); log: ${log}`);
