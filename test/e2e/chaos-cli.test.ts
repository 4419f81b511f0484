import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { control } from '../helpers/robust.js';
import { Condition, followDeliveries } from '../helpers/wait.js';

interface Received {
  eventId: string;
  body: string;
}

async function receiver() {
  const received: Received[] = [];
  const arrived = new Condition();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ eventId: String(req.headers['service-event-id']), body: Buffer.concat(chunks).toString('utf8') });
      arrived.notify();
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    arrived,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
}

describe('scanctl webhook chaos (built CLI, real dispatcher and receiver)', () => {
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    hook = await receiver();
  });
  afterAll(async () => {
    await hook?.close();
  });

  async function emulatorWithChaos(chaos: string[]) {
    const serve = await startServe(['--db', ':memory:']);
    const cli = (args: string[]) => runCli([...args, '--base-url', serve.baseUrl]);
    expect((await cli(['app', 'update', '--webhook-url', hook.url])).code).toBe(0);
    const set = await cli(['webhook', 'chaos', ...chaos]);
    expect(set.code).toBe(0);
    // The dispatcher sends in real time, asynchronously: wait on its delivery events, not on a timer.
    const follower = await followDeliveries(serve.baseUrl, 'app_demo');
    const deliveries = async () =>
      (await control<{ data: Delivery[] }>(serve.baseUrl, '/webhooks/deliveries?app_id=app_demo')).data.sort((a, b) =>
        a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
      );
    const until = (what: string, check: (list: Delivery[]) => boolean) =>
      follower.changed.until(what, async () => {
        const list = await deliveries();
        return check(list) && list;
      });
    const stop = async () => {
      follower.close();
      await serve.stop();
    };
    return { serve, cli, deliveries, until, stop };
  }

  it('WH-7, WH-8, WH-9: --fail-first 2 fails attempts 1 and 2 with 500; the 3rd, 1m30s later, arrives twice (--duplicate 1) with the same bytes', async () => {
    const { cli, deliveries, until, stop } = await emulatorWithChaos(['--fail-first', '2', '--duplicate', '1', '--seed', '7']);
    try {
      const shown = await cli(['webhook', 'chaos']);
      expect(shown.stdout).toContain('seed 7');
      expect(shown.stdout).toContain('Replay exactly: scanctl webhook chaos --duplicate 1 --fail-first 2 --seed 7 --app app_demo');
      const before = hook.received.length;
      expect((await cli(['scan', 'simulate', '--user', 'member_chaos'])).code).toBe(0);
      await until('attempt 1', (d) => d[0]?.attempts === 1);
      expect((await deliveries())[0]).toMatchObject({ status: 'pending', last_status: 500, last_error: 'failed by chaos' });
      await cli(['clock', 'advance', '30s']);
      await until('attempt 2', (d) => d[0]?.attempts === 2);
      expect(hook.received.length).toBe(before);
      await cli(['clock', 'advance', '1m']);
      const [done] = await until('attempt 3', (d) => d[0]?.status === 'succeeded');
      // The duplicate is a second POST of the same attempt: wait for the receiver to have both.
      await hook.arrived.until('the duplicate', () => hook.received.length >= before + 2);
      expect(done).toMatchObject({ attempts: 3, last_status: 200 });
      const got = hook.received.slice(before);
      expect(got).toHaveLength(2);
      expect(got[1]!.eventId).toBe(got[0]!.eventId);
      expect(got[1]!.body).toBe(got[0]!.body);
      // chaos off: the next delivery goes straight through, once.
      expect((await cli(['webhook', 'chaos', 'off'])).stdout).toContain('No delivery chaos on app_demo.');
      await cli(['scan', 'simulate', '--user', 'member_calm']);
      await until('delivery after chaos off', (d) => d[1]?.status === 'succeeded');
      expect((await deliveries())[1]!.attempts).toBe(1);
    } finally {
      await stop();
    }
  });

  it('the same --seed gives the same verdicts in a fresh emulator (a CI failure replays exactly)', async () => {
    const run = async () => {
      const { cli, until, stop } = await emulatorWithChaos(['--drop', '0.5', '--seed', '42']);
      try {
        expect((await cli(['scan', 'simulate', '--user', 'member_replay', '--count', '8'])).code).toBe(0);
        const list = await until('first attempts', (d) => d.length === 8 && d.every((x) => x.attempts === 1));
        return list.map((d) => d.status);
      } finally {
        await stop();
      }
    };
    const first = await run();
    expect(first).toContain('succeeded');
    expect(first).toContain('pending');
    expect(await run()).toEqual(first);
  });
});
