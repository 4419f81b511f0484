// The flat-costs benchmark's child process (bench/cases/flat-costs.js runs one per database size):
//   node bench/flat/worker.js prepare <db> <rows>   builds a database holding <rows> rows per table
//   node bench/flat/worker.js measure <db> <ops>    times each operation on it, prints JSON
// Rows go in with direct SQL, in big transactions, into the schema the emulator's own migrations
// built (dist/store/db.js): months of scans, sessions, idempotency keys, events, deliveries and
// attempts, as a long-used .scanctl/scanctl.db holds them. Operations run in this process against
// the emulator's hono app (createEmulator + app.request), so the figure is the emulator's work and
// not the network's; the webhook engine is not started (deliveries stay where they are).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ROOT, loadFixtures, median } from '../lib.js';

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const DAY = 86_400_000;
const APP = 'app_demo';
const INSTALLATION = 'ins_flatBench000001';
const HOOK = 'http://127.0.0.1:9/hook';

const [mode, dbPath, arg] = process.argv.slice(2);

async function open() {
  const [{ openDatabase, loadSecretBox }, { createEmulator }] = await Promise.all([
    dist('store/db.js'),
    dist('emulator/create-emulator.js'),
  ]);
  const db = openDatabase(dbPath, { exclusive: true });
  const emulator = createEmulator({ db, box: loadSecretBox(dbPath), config: { version: 'bench', rateLimitPerSecond: 0 } });
  return { db, emulator };
}

async function prepare(rows) {
  const [{ applyFixtures }, { readFixtures }, { randomIds }, { MODEL_VERSIONS }] = await Promise.all([
    dist('emulator/domain/apply-fixtures.js'),
    dist('emulator/fixture-file.js'),
    dist('util/ids.js'),
    dist('contract/device.js'),
  ]);
  const { db, emulator } = await open();
  const now = Date.now();
  const dir = join(dbPath, '..');
  const fixtures = loadFixtures(dir, { webhookUrl: HOOK });
  applyFixtures(emulator.store, randomIds, emulator.box, now, readFixtures(fixtures.file));
  const key = db.prepare("SELECT id FROM api_keys WHERE app_id = ? AND env = 'test' AND kind = 'secret'").get(APP);
  const columns = (table) =>
    new Set(
      db
        .prepare(`PRAGMA table_info(${table})`)
        .all()
        .map((c) => c.name),
    );
  const deliveryColumns = columns('deliveries');
  const model = MODEL_VERSIONS[0];
  // A year of history, oldest first: row i happened at `at(i)`.
  const span = 365 * DAY;
  const at = (i) => now - span + Math.floor((i * span) / rows);
  db.prepare(
    `INSERT INTO installations (id, app_id, status, bundle_id, team_id, app_version, enrolled_at, enrollments, blocked_at, last_seen_at)
     VALUES (?, ?, 'enrolled', 'com.example.scanner', 'A1B2C3D4E5', '1.0.0', ?, 1, NULL, ?)`,
  ).run(INSTALLATION, APP, now - span, now);
  const session =
    db.prepare(`INSERT INTO sessions (id, token_hash, app_id, key_id, env, host_user_ref, scopes, created_at, expires_at, scan_id)
    VALUES (?, ?, ?, ?, ?, ?, '["scan.create","results.upload"]', ?, ?, ?)`);
  const scan =
    db.prepare(`INSERT INTO scans (app_id, id, installation_id, session_id, env, host_user_ref, status, model_version, occurred_at,
    started_at, recorded_at, billable, reports) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 1)`);
  const idem = db.prepare(
    `INSERT INTO idempotency_keys (app_id, key, request_hash, status, response, created_at) VALUES (?, ?, ?, 201, '{}', ?)`,
  );
  const event = db.prepare(
    `INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const withSeq = deliveryColumns.has('app_seq');
  const delivery = db.prepare(`INSERT INTO deliveries (id, event_id, app_id, host_user_ref, status, attempts, next_attempt_at, last_status,
    created_at, updated_at, origin${withSeq ? ', app_seq' : ''}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'event'${withSeq ? ', ?' : ''})`);
  const attempt =
    db.prepare(`INSERT INTO attempts (delivery_id, event_id, number, url, started_at, status, latency_ms, error, response_excerpt, request_headers)
    VALUES (?, ?, 1, ?, ?, 200, 3, NULL, '{"ok":true}', NULL)`);
  const pad = (i) => String(i).padStart(8, '0');
  const BATCH = 50_000;
  // The last PENDING rows are deliveries still due (an outbox with some work in it); the rest succeeded.
  const PENDING = Math.min(1_000, Math.floor(rows / 10));
  for (let from = 0; from < rows; from += BATCH) {
    db.transaction(() => {
      for (let i = from; i < Math.min(rows, from + BATCH); i++) {
        const t = at(i);
        const member = `member_${i % 5_000}`;
        const live = i % 4 === 0;
        const status = i % 10 === 9 ? 'failed' : 'completed';
        const scanId = `scn_flat${pad(i)}`;
        const sessionId = `ses_flat${pad(i)}`;
        session.run(sessionId, `h${pad(i)}${'0'.repeat(55)}`, APP, key.id, live ? 'live' : 'test', member, t, t + 15 * 60_000, scanId);
        scan.run(
          APP,
          scanId,
          INSTALLATION,
          sessionId,
          live ? 'live' : 'test',
          member,
          status,
          model,
          t,
          t,
          live && status === 'completed' ? 1 : 0,
        );
        idem.run(APP, `idem_flat${pad(i)}`, 'f'.repeat(64), t);
        const eventId = `evt_flat${pad(i)}`;
        const type = status === 'completed' ? 'scan.completed' : 'scan.failed';
        const payload = JSON.stringify({
          id: eventId,
          type,
          created_at: new Date(t).toISOString(),
          data: {
            scan_id: scanId,
            app_id: APP,
            host_user_ref: member,
            occurred_at: new Date(t).toISOString(),
            model_version: model,
            status,
          },
        });
        event.run(eventId, APP, type, scanId, member, payload, t);
        const deliveryId = `del_flat${pad(i)}`;
        const pending = i >= rows - PENDING;
        const values = [
          deliveryId,
          eventId,
          APP,
          member,
          pending ? 'pending' : 'succeeded',
          pending ? 0 : 1,
          pending ? now - 1_000 : null,
          pending ? null : 200,
          t,
          t,
        ];
        if (withSeq) values.push(i);
        delivery.run(...values);
        if (!pending) attempt.run(deliveryId, eventId, HOOK, t);
      }
    })();
  }
  db.close();
  return { rows, pending: PENDING };
}

/** Median milliseconds of `fn` over `runs` calls after `warmup` untimed ones. */
async function timed(runs, warmup, fn) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const started = performance.now();
    await fn(i);
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return median(samples);
}

async function measure(ops) {
  const [{ chaosVerdict }, { MODEL_VERSIONS }] = await Promise.all([dist('webhooks/chaos.js'), dist('contract/device.js')]);
  const { db, emulator } = await open();
  const { app, store } = emulator;
  const auth = { authorization: 'Bearer sk_test_demoSecretKey00000000000001', 'content-type': 'application/json' };
  const json = async (path, init = {}) => {
    const res = await app.request(`http://127.0.0.1${path}`, init);
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  };
  const mint = () => json('/v1/sessions', { method: 'POST', headers: auth, body: JSON.stringify({ host_user_ref: 'member_flat' }) });
  const results = {};
  const run = `${process.pid}_${Date.now()}`;
  for (const op of ops) {
    if (op === 'mint') results.mint = await timed(300, 30, mint);
    else if (op === 'scan-event') {
      const tokens = [];
      for (let i = 0; i < 230; i++) tokens.push((await mint()).session_token);
      results['scan-event'] = await timed(200, 30, (i) =>
        json('/v1/scan-events', {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[i]}`, 'idempotency-key': `idem_${run}_${i}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            installation_id: INSTALLATION,
            scan_id: `scn_${run}_${i}`,
            status: 'completed',
            occurred_at: new Date(emulator.clock.now()).toISOString(),
            model_version: MODEL_VERSIONS[0],
          }),
        }),
      );
    } else if (op === 'claim') {
      // Claim 32 due deliveries at a time; each claimed batch is given back afterwards (untimed): a claim
      // is held in memory and the rows stay pending in the database (migration 0008).
      const now = emulator.clock.now();
      const samples = [];
      for (let i = 0; i < 230; i++) {
        const started = performance.now();
        const rows = store.webhooks.claimDue(now, 32);
        const ms = performance.now() - started;
        if (rows.length === 0) throw new Error('no due delivery to claim');
        if (i >= 30) samples.push(ms);
        store.webhooks.forgetClaims(now);
      }
      results.claim = median(samples);
    } else if (op === 'usage') results.usage = await timed(30, 3, () => json('/_scanctl/usage'));
    else if (op === 'scans-list') results['scans-list'] = await timed(100, 10, () => json(`/_scanctl/apps/${APP}/scans?limit=100`));
    else if (op === 'deliveries-list')
      results['deliveries-list'] = await timed(100, 10, () => json(`/_scanctl/webhooks/deliveries?app_id=${APP}&limit=100`));
    else if (op === 'chaos') {
      store.chaos.upsert({
        app_id: APP,
        seed: 7,
        drop_probability: 0.1,
        duplicate_probability: 0.1,
        delay_ms: null,
        delay_probability: 0.1,
        reorder: 1,
        fail_first: 0,
        fail_status: 500,
        created_at: 0,
        updated_at: 0,
      });
      // The newest deliveries: the ones a running outbox asks about.
      const ids = db
        .prepare('SELECT id FROM deliveries ORDER BY rowid DESC LIMIT 300')
        .all()
        .map((r) => r.id);
      results.chaos = await timed(250, 50, (i) => chaosVerdict(store, APP, ids[i], 1));
      store.chaos.delete(APP);
    } else if (op === 'export') {
      // The whole state, read as a client reads it; the figure is the time per 1,000 rows.
      // The exported tables: derived ones (when this build has them) are not part of the file.
      const derived = await dist('store/derived.js').then(
        (m) => m.DERIVED_TABLES,
        () => new Set(),
      );
      const rowCount = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all()
        .filter(({ name }) => !derived.has(name))
        .reduce((sum, { name }) => sum + db.prepare(`SELECT count(*) AS n FROM "${name}"`).get().n, 0);
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const started = performance.now();
      const res = await app.request('http://127.0.0.1/_scanctl/state');
      let bytes = 0;
      let firstByteMs = null;
      for await (const chunk of res.body) {
        firstByteMs ??= performance.now() - started;
        bytes += chunk.length;
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      const ms = performance.now() - started;
      clearInterval(sampler);
      if (res.status !== 200) throw new Error(`state export answered ${res.status}`);
      results.export = (ms / rowCount) * 1000;
      results.export_detail = { rows: rowCount, bytes, ms, first_byte_ms: firstByteMs, rss_growth_mb: (peak - rssBefore) / 2 ** 20 };
    } else throw new Error(`unknown operation ${op}`);
  }
  db.close();
  return results;
}

try {
  const out = mode === 'prepare' ? await prepare(Number(arg)) : await measure(arg.split(','));
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
}
