// Server time of the web console's Deliveries page with 100,000 deliveries in the outbox: the
// newest page, a page deep in the list (by its Older cursor), a status filter that matches one
// delivery in ten, and one delivery's page. In process (app.request, no socket), so the figure is
// the server's own time: routing, the paged query, rendering the HTML. Median of each; the result
// is the slowest of the four.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { median, ROOT } from '../lib.js';

const load = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

export default {
  id: 'console-deliveries',
  title: 'Console Deliveries page with 100,000 deliveries (server time)',
  baseline: 'none (absolute)',
  target: { max: 50, unit: 'ms' },
  async run({ quick }) {
    const count = quick ? 20_000 : 100_000;
    const runs = quick ? 10 : 30;
    const { createEmulator } = await load('emulator/create-emulator.js');
    const { openDatabase } = await load('store/db.js');
    const { VirtualClock, frozenBase } = await load('clock/clock.js');
    const { applyFixtures } = await load('emulator/domain/apply-fixtures.js');
    const { readFixtures } = await load('emulator/fixture-file.js');
    const { mountConsole } = await load('console/mount.js');
    const db = openDatabase(':memory:');
    const clock = new VirtualClock({ base: frozenBase() });
    const emulator = createEmulator({ db, clock, config: { defaultAppId: 'app_demo', rateLimitPerSecond: 0 }, mounts: [mountConsole] });
    applyFixtures(emulator.store, emulator.ids, emulator.box, clock.now(), readFixtures(join(ROOT, 'fixtures', 'default.json')));
    const start = clock.now() - count * 1000;
    // The outbox as 100,000 scans would leave it: one event and one delivery each, one in ten failed.
    db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO events (id, app_id, type, scan_id, host_user_ref, payload, created_at)
        SELECT 'evt_bench' || i, 'app_demo', 'scan.completed', 'scn_' || i, 'member_' || (i % 1000),
          '{"id":"evt_bench' || i || '","type":"scan.completed"}', ${start} + i * 1000 FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO deliveries (id, event_id, app_id, host_user_ref, status, attempts, next_attempt_at, last_status, created_at, updated_at)
        SELECT 'del_bench' || i, 'evt_bench' || i, 'app_demo', 'member_' || (i % 1000),
          CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'succeeded' END, CASE WHEN i % 10 = 0 THEN 17 ELSE 1 END, NULL,
          CASE WHEN i % 10 = 0 THEN 500 ELSE 200 END, ${start} + i * 1000, ${start} + i * 1000 FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
      INSERT INTO attempts (delivery_id, event_id, number, url, started_at, status, latency_ms)
        SELECT 'del_bench' || i, 'evt_bench' || i, 1, 'http://127.0.0.1:4242/hooks', ${start} + i * 1000, 200, 3 FROM n;
    `);
    const signIn = await emulator.app.request('/sign-in', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'account_id=acct_demo',
    });
    const cookie = signIn.headers.get('set-cookie').split(';')[0];
    const pages = {
      newest: '/deliveries',
      deep: `/deliveries?before=del_bench${Math.floor(count / 2)}`,
      failed: '/deliveries?status=failed',
      delivery: `/deliveries/del_bench${Math.floor(count / 3)}`,
    };
    const medians = {};
    // Warm every page first (JIT, prepared statements), so the first one measured does not pay for all.
    for (let i = 0; i < 5; i++)
      for (const path of Object.values(pages)) await (await emulator.app.request(path, { headers: { cookie } })).text();
    for (const [name, path] of Object.entries(pages)) {
      const samples = [];
      for (let i = 0; i < runs + 3; i++) {
        const started = performance.now();
        const response = await emulator.app.request(path, { headers: { cookie } });
        const html = await response.text();
        const ms = performance.now() - started;
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${html.slice(0, 200)}`);
        if (name !== 'delivery' && (html.match(/<tr id="delivery-/g) ?? []).length !== 50)
          throw new Error(`${path} did not list 50 deliveries`);
        if (i >= 3) samples.push(ms);
      }
      medians[name] = median(samples);
    }
    db.close();
    const slowest = Math.max(...Object.values(medians));
    return {
      value: slowest,
      unit: 'ms',
      note: `${count.toLocaleString('en')} deliveries, 50 a page, median of ${runs}: newest ${medians.newest.toFixed(1)} ms, deep (cursor at the middle) ${medians.deep.toFixed(1)} ms, status=failed ${medians.failed.toFixed(1)} ms, one delivery ${medians.delivery.toFixed(1)} ms${quick ? '; --quick: 20,000 deliveries' : ''}`,
    };
  },
};
