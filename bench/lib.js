// Shared helpers of the benchmarks: timing child processes, starting the built emulator, load.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { cpus, freemem, totalmem, tmpdir, platform, release, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import http from 'node:http';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'scanctl.js');
/** The single executable (npm run build:exe); the cases that measure it say so when it is missing. */
export const EXE = join(ROOT, 'dist', 'exe', 'scanctl');

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function tempDir(prefix = 'scanctl-bench-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Milliseconds from spawn to exit of `node ...args` (`options.file`: another program than node); fails on a non-zero exit. */
export function timeProcess(args, { file = process.execPath, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

/**
 * Runs several timed commands interleaved (a, b, a, b, ...) so that machine noise falls on
 * both sides alike; returns the median of each.
 */
export async function interleavedMedians(commands, runs, warmup = 2) {
  const samples = commands.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    for (let c = 0; c < commands.length; c++) {
      const ms = await commands[c]();
      if (i >= warmup) samples[c].push(ms);
    }
  }
  return samples.map(median);
}

/**
 * Starts the BUILT `scanctl serve --port 0 --json` (`exe`: the single executable's, or the path of a copy of it) and resolves at its ready line with the
 * time it took, the parsed line, and a stop function.
 */
export function startServe(extraArgs = [], { dir = tempDir(), env = {}, nodeArgs = [], exe = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // SCANCTL_BENCH_SERVE_NODE_ARGS (space-separated), e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile serve.
    const extraNode = (process.env.SCANCTL_BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const serveArgs = ['serve', '--port', '0', '--json', '--db', join(dir, 'emulator.db'), ...extraArgs];
    const child = spawn(
      exe ? (typeof exe === 'string' ? exe : EXE) : process.execPath,
      exe ? serveArgs : [...extraNode, ...nodeArgs, BIN, ...serveArgs],
      {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', SCANCTL_BASE_URL: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not become ready: ${stderr}`));
    }, 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      const readyMs = performance.now() - started;
      let ready;
      try {
        ready = JSON.parse(line);
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`serve's first line is not JSON: ${line}`));
        return;
      }
      resolve({
        child,
        dir,
        readyMs,
        ready,
        baseUrl: ready.base_url,
        stderr: () => stderr,
        async stop() {
          child.kill('SIGTERM');
          const code = await exited;
          return code;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before ready: ${stderr}`));
    });
  });
}

/** A fixture file for load: the demo app with a quota no benchmark reaches. */
export function loadFixtures(dir, { webhookUrl } = {}) {
  const fixtures = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'default.json'), 'utf8'));
  for (const app of fixtures.apps) app.daily_session_quota = 1_000_000_000;
  if (webhookUrl) fixtures.apps[0].webhook_url = webhookUrl;
  const file = join(dir, 'bench-fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures, null, 2));
  return { file, app: fixtures.apps[0], testSecret: fixtures.apps[0].keys.test.secret, appId: fixtures.apps[0].id };
}

/** The options of `scanctl scan simulate` for one completed scan of the fixtures' first app (`loadFixtures`). */
export function simulateOptions(baseUrl, fixtures, hostUserRef = 'member_0') {
  return {
    baseUrl,
    secretKey: fixtures.testSecret,
    hostUserRef,
    outcome: 'completed',
    count: 1,
    offlineLateMs: null,
    result: {},
    noScope: false,
    duplicateReport: false,
    uploadRetries: 0,
    installationId: null,
    reinstall: false,
    bundleId: fixtures.app.bundle_id,
    teamId: fixtures.app.team_id,
    appVersion: '1.0.0',
  };
}

/** One installation enrolled through the simulated SDK (one completed scan): its id and the model version it got. */
export async function enrollInstallation(baseUrl, fixtures) {
  const { simulate } = await distModule('sdk/simulate.js');
  const [first] = await simulate(simulateOptions(baseUrl, fixtures), () => {});
  return { installationId: first.installation_id, modelVersion: first.steps.find((s) => s.step === 'model').model_version };
}

/**
 * Scans `from` to `to` (not included) reported as an app syncing them does: for each, a session minted for
 * one of `members` members and POST /v1/scan-events `completed` from the enrolled installation
 * (`enrollInstallation`), `concurrency` at a time over keep-alive; every answer must be 201.
 */
export async function reportScans(
  baseUrl,
  fixtures,
  { installationId, modelVersion },
  { from = 0, to, tag, members = 1000, concurrency = 32 },
) {
  const auth = { authorization: `Bearer ${fixtures.testSecret}` };
  let next = from;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < to) {
        const i = next++;
        const minted = await request(`${baseUrl}/v1/sessions`, {
          method: 'POST',
          headers: auth,
          json: { host_user_ref: `member_${i % members}` },
        });
        if (minted.status !== 201) throw new Error(`mint answered ${minted.status}: ${JSON.stringify(minted.body)}`);
        const reported = await request(`${baseUrl}/v1/scan-events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${minted.body.session_token}`, 'idempotency-key': `idem_${tag}${i}` },
          json: {
            installation_id: installationId,
            scan_id: `scn_${tag}${i}`,
            status: 'completed',
            occurred_at: new Date().toISOString(),
            model_version: modelVersion,
          },
        });
        if (reported.status !== 201) throw new Error(`scan event answered ${reported.status}: ${JSON.stringify(reported.body)}`);
      }
    }),
  );
}

/** Starts a child node process running `script` and resolves with the URL it prints first. */
export function startChildServer(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout });
    const exited = new Promise((done) => child.once('exit', done));
    lines.once('line', (line) => resolve({ child, url: line.trim(), stop: async () => (child.kill('SIGTERM'), exited) }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** autocannon, imported lazily (a devDependency), resolved as a promise. */
export async function cannon(options) {
  const { default: autocannon } = await import('autocannon');
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Resident set size of a process in MB, from /proc (Linux): VmRSS, or another field of its status (RssAnon). */
export function rssMb(pid, field = 'VmRSS') {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The commit measured (with -dirty when the work tree has changes other than the benchmarks' own
 * output, which a run on one Node line leaves for the next), or 'unknown' outside git.
 */
function gitCommit() {
  const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return 'unknown';
  return `${head.stdout.trim()}${git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/RESULTS.md', ':!bench/flat-costs.svg']).stdout.trim() ? '-dirty' : ''}`;
}

export function machine() {
  const cpuList = cpus();
  return {
    cpu: cpuList[0]?.model?.trim() ?? 'unknown',
    cores: cpuList.length,
    memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    free_memory_gb: Math.round((freemem() / 1024 ** 3) * 10) / 10,
    load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    commit: gitCommit(),
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
  };
}

// ---- Webhook benchmarks ----

const DIST = join(ROOT, 'dist');
const distModule = (path) => import(pathToFileURL(join(DIST, path)).href);

/** One HTTP request over a keep-alive agent; resolves with the status and the parsed JSON body. */
export function request(url, { method = 'GET', headers = {}, json, agent } = {}) {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? null : Buffer.from(JSON.stringify(json));
    const req = http.request(url, {
      method,
      agent: agent ?? keepAliveAgent,
      headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...headers },
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = text;
        }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
export const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Builds, before serve starts, a database whose outbox already holds `deliveries` due deliveries
 * (one scan.completed event each) for the demo app, whose webhook_url is `receiverUrl`. It goes
 * through the emulator's own modules (dist/): fixtures, then recordScanEvent, as a reported scan
 * would. Returns the fixture file to start serve with (same webhook_url) and a sample payload.
 */
export async function prepareOutbox(dir, { receiverUrl, deliveries }) {
  const fixtures = loadFixtures(dir, { webhookUrl: receiverUrl });
  const dbPath = join(dir, 'emulator.db');
  const [{ openDatabase, loadSecretBox }, { createStore }, { applyFixtures }, { readFixtures }, { randomIds }, { recordScanEvent }] =
    await Promise.all([
      distModule('store/db.js'),
      distModule('store/index.js'),
      distModule('emulator/domain/apply-fixtures.js'),
      distModule('emulator/fixture-file.js'),
      distModule('util/ids.js'),
      distModule('webhooks/outbox.js'),
    ]);
  const db = openDatabase(dbPath, { exclusive: true });
  try {
    const store = createStore(db);
    const box = loadSecretBox(dbPath);
    const now = Date.now();
    applyFixtures(store, randomIds, box, now, readFixtures(fixtures.file));
    db.transaction(() => {
      for (let i = 0; i < deliveries; i++) {
        recordScanEvent(store, randomIds, now, {
          type: 'scan.completed',
          appId: fixtures.appId,
          scanId: `scn_bench${String(i).padStart(8, '0')}`,
          hostUserRef: `member_${i % 100}`,
          occurredAt: now,
          modelVersion: 'bench',
        });
      }
    })();
    const sample = db.prepare('SELECT payload FROM events LIMIT 1').get();
    return { ...fixtures, dbPath, samplePayload: sample?.payload ?? '{}' };
  } finally {
    db.close();
  }
}

/**
 * Polls a bench/receiver.js process until it has answered `count` POSTs. Cheap for the emulator
 * (the receiver is another process), so the emulator is not slowed by being watched. Resolves with
 * when it saw them and how many POSTs the receiver had answered by then (`count` or a few more).
 */
export async function waitForReceiver(receiverUrl, count, { timeoutMs = 300_000, intervalMs = 5 } = {}) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { body } = await request(`${receiverUrl}/stats`);
    if (body.posts >= count) return { at: performance.now(), posts: body.posts };
    if (performance.now() > deadline) throw new Error(`the receiver got ${body.posts} of ${count} POSTs within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Polls the control plane until no delivery is pending or in flight; resolves with the time it saw that. */
export async function waitForOutboxDrained(baseUrl, { timeoutMs = 120_000, intervalMs = 20 } = {}) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const [pending, inFlight] = await Promise.all([
      request(`${baseUrl}/_scanctl/webhooks/deliveries?status=pending&limit=1`),
      request(`${baseUrl}/_scanctl/webhooks/deliveries?status=in_flight&limit=1`),
    ]);
    if (pending.status !== 200 || inFlight.status !== 200) throw new Error(`delivery list answered ${pending.status}/${inFlight.status}`);
    if (pending.body.data.length === 0 && inFlight.body.data.length === 0) return performance.now();
    if (performance.now() > deadline) throw new Error(`the outbox did not drain within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** After serve stopped: what the database recorded (deliveries by status, attempts by HTTP status). */
export async function outboxCounts(dbPath) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(dbPath, { readonly: true });
  try {
    const deliveries = Object.fromEntries(
      db
        .prepare('SELECT status, count(*) AS n FROM deliveries GROUP BY status')
        .all()
        .map((r) => [r.status, r.n]),
    );
    const attempts = db.prepare('SELECT count(*) AS n FROM attempts').get().n;
    const maxAttempts = db.prepare('SELECT max(attempts) AS m, min(attempts) AS l FROM deliveries').get();
    return { deliveries, attempts, maxAttempts: maxAttempts.m, minAttempts: maxAttempts.l };
  } finally {
    db.close();
  }
}
