import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { acknowledgedScans, cliJson, control, simLines, spawnCli, type StreamingCli } from '../helpers/robust.js';
import { followDeliveries } from '../helpers/wait.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Several `scanctl scan simulate` processes against ONE built `scanctl serve` at the same time,
 * results delivery on, deliveries to a real loopback receiver that checks every signature.
 * Nothing may be lost, doubled or miscounted, and the server never answers 5xx.
 */

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const PER_PROCESS = 25;
/** Four members, two billed (live key), one test-key member, one whose scans all fail. */
const PLAYERS = [
  { user: 'rob_live_1', env: 'live', outcome: 'completed' },
  { user: 'rob_live_2', env: 'live', outcome: 'completed' },
  { user: 'rob_test_1', env: 'test', outcome: 'completed' },
  { user: 'rob_test_fail', env: 'test', outcome: 'failed' },
] as const;

describe('robustness: concurrent simulators against one serve', () => {
  it('BILL-1, BILL-2, BILL-3, WH-5, WH-8, ERR-1: 4 processes x 25 scans: every scan once, usage exact, every event delivered and signed, no 5xx', async () => {
    const receiver = await startReceiver(DEMO.webhookSecret);
    cleanups.push(() => receiver.close());
    const serve = await startServe();
    cleanups.push(() => serve.stop());
    const base = serve.baseUrl;
    const set = await runCli(['app', 'update', '--webhook-url', receiver.url, '--results-delivery', 'on', '--base-url', base]);
    expect(set.code, set.stderr).toBe(0);

    // Every request line, live, for the whole run (the buffer behind `logs tail -n` keeps only the last 1,000).
    // It starts from the last few lines, this request's among them: once that is printed, the tail follows live.
    await fetch(`${base}/_scanctl/info`);
    const tail = spawnCli(['logs', 'tail', '--json', '--all', '-n', '5', '--base-url', base]);
    cleanups.push(() => tail.kill());
    await tail.printed.until('logs tail to follow', () => tail.lines.some((l) => l.includes('"/_scanctl/info"')));
    const follower = await followDeliveries(base, DEMO.appId);
    cleanups.push(async () => follower.close());

    const started = Date.now();
    const players: StreamingCli[] = PLAYERS.map((p) =>
      spawnCli([
        'scan',
        'simulate',
        '--user',
        p.user,
        '--env',
        p.env,
        '--outcome',
        p.outcome,
        '--count',
        String(PER_PROCESS),
        '--json',
        '--base-url',
        base,
      ]),
    );
    for (const p of players) cleanups.push(() => p.kill());
    const codes = await Promise.all(players.map((p) => p.exited));
    const loadMs = Date.now() - started;
    players.forEach((p, i) => expect(codes[i], `${PLAYERS[i]!.user}: ${p.stderr()}`).toBe(0));

    // What the clients saw: 100 recorded scans, distinct ids, each with its outcome.
    const summaries = players.flatMap((p) => simLines(p.lines));
    expect(summaries).toHaveLength(PLAYERS.length * PER_PROCESS);
    expect(summaries.every((s) => !s.error && s.state === 'recorded')).toBe(true);
    const acknowledged = acknowledgedScans(summaries);
    const ackIds = acknowledged.map((s) => s.scan_id!);
    expect(new Set(ackIds).size).toBe(ackIds.length);

    // What the database holds (through the CLI): each scan exactly once, with the outcome the client reported.
    const scans = (await cliJson(['scan', 'list', '--limit', '1000', '--base-url', base])).data as Array<Record<string, any>>;
    expect(scans).toHaveLength(ackIds.length);
    expect(new Set(scans.map((s) => s.id))).toEqual(new Set(ackIds));
    for (const p of PLAYERS) {
      const mine = scans.filter((s) => s.host_user_ref === p.user);
      expect(mine, p.user).toHaveLength(PER_PROCESS);
      expect(
        mine.every((s) => s.status === p.outcome && s.env === p.env && s.billable === (p.env === 'live' && p.outcome === 'completed')),
      ).toBe(true);
      expect(mine.every((s) => s.result_stored === (p.outcome === 'completed'))).toBe(true);
    }

    // Usage to the unit.
    const usage = (await cliJson(['usage', '--base-url', base])).data.filter((u: any) => u.app_id === DEMO.appId);
    const sum = (field: string) => usage.reduce((n: number, u: any) => n + u[field], 0);
    expect(sum('monthly_active_users')).toBe(2);
    expect(sum('billable_scans')).toBe(2 * PER_PROCESS);
    expect(sum('test_scans')).toBe(2 * PER_PROCESS);
    expect(sum('completed_scans')).toBe(3 * PER_PROCESS);
    expect(sum('failed_scans')).toBe(PER_PROCESS);
    expect(sum('abandoned_scans')).toBe(0);

    // Deliveries: completed and results_available for each completed scan, failed for each failed one; all acknowledged.
    const expectedEvents = 3 * PER_PROCESS * 2 + PER_PROCESS;
    const deliveries = await follower.changed.until(
      'every delivery acknowledged',
      async () => {
        const list = (await control(base, `/webhooks/deliveries?app_id=${DEMO.appId}&limit=1000`)).data as Array<Record<string, any>>;
        return list.length === expectedEvents && list.every((d) => d.status === 'succeeded') ? list : null;
      },
      20_000,
    );
    const viaCli = (await cliJson(['webhook', 'deliveries', '--limit', '1000', '--base-url', base])).data as Array<Record<string, any>>;
    expect(viaCli).toHaveLength(expectedEvents);
    expect(viaCli.every((d) => d.status === 'succeeded')).toBe(true);
    const eventIds = new Set(deliveries.map((d) => d.event_id));
    expect(eventIds.size).toBe(expectedEvents);
    // One event per scan and type: nothing doubled by the concurrency.
    expect(new Set(deliveries.map((d) => `${d.scan_id} ${d.event_type}`)).size).toBe(expectedEvents);
    expect(new Set(deliveries.map((d) => d.scan_id))).toEqual(new Set(ackIds));

    // The receiver saw each event id at least once, every body signed, header and body agreeing.
    expect(receiver.received.every((d) => d.signatureValid)).toBe(true);
    for (const d of receiver.received) {
      expect(d.body.id).toBe(d.headers['service-event-id']);
      expect(d.body.type).toBe(d.headers['service-event-type']);
    }
    expect(new Set(receiver.received.map((d) => String(d.headers['service-event-id'])))).toEqual(eventIds);

    // The request log: every request of the run, not one 5xx; the same through `logs tail --no-follow`.
    const marks = tail.lines.filter((l) => l.includes('"/_scanctl/info"')).length;
    await fetch(`${base}/_scanctl/info`);
    await tail.printed.until('the request log to catch up', () => tail.lines.filter((l) => l.includes('"/_scanctl/info"')).length > marks);
    await tail.kill();
    const logged = tail.lines.map((l) => JSON.parse(l) as { method: string; path: string; status: number; error_code?: string });
    const scanEventCalls = logged.filter((l) => l.method === 'POST' && l.path === '/v1/scan-events');
    expect(scanEventCalls.length).toBeGreaterThanOrEqual(2 * PLAYERS.length * PER_PROCESS); // started + outcome, per scan
    expect(logged.filter((l) => l.status >= 500)).toEqual([]);
    // A 429 would be plain rate limiting, retried by the simulator; nothing else may fail.
    expect(logged.filter((l) => l.status >= 400 && l.error_code !== 'rate_limited')).toEqual([]);
    const fivexx = await runCli(['logs', 'tail', '--no-follow', '--json', '--all', '--status', '5xx', '-n', '1000', '--base-url', base]);
    expect(fivexx.code, fivexx.stderr).toBe(0);
    expect(fivexx.stdout).toBe('');
    expect(serve.stderr()).not.toMatch(/internal error|Error:/);
    console.log(
      `robust-concurrency: ${ackIds.length} scans by ${PLAYERS.length} processes in ${loadMs} ms, ${deliveries.length} events, ${receiver.received.length} deliveries received, ${logged.length} requests logged`,
    );
  }, 90_000);
});
