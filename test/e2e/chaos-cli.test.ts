import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';

interface Received {
  eventId: string;
  body: string;
}

async function receiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ eventId: String(req.headers['service-event-id']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

/** Polls (bounded) until check() holds: the dispatcher sends in real time, asynchronously. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 25_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
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

  async function emulatorWithChaos(chaos: string[]): Promise<{ serve: ServeProcess; cli: (args: string[]) => ReturnType<typeof runCli> }> {
    const serve = await startServe(['--db', ':memory:']);
    const cli = (args: string[]) => runCli([...args, '--base-url', serve.baseUrl]);
    expect((await cli(['app', 'update', '--webhook-url', hook.url])).code).toBe(0);
    const set = await cli(['webhook', 'chaos', ...chaos]);
    expect(set.code).toBe(0);
    return { serve, cli };
  }

  const deliveries = async (cli: (args: string[]) => ReturnType<typeof runCli>) =>
    (JSON.parse((await cli(['webhook', 'deliveries', '--json'])).stdout).data as Delivery[]).sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
    );

  it('WH-7, WH-8, WH-9: --fail-first 2 fails attempts 1 and 2 with 500; the 3rd, 1m30s later, arrives twice (--duplicate 1) with the same bytes', async () => {
    const { serve, cli } = await emulatorWithChaos(['--fail-first', '2', '--duplicate', '1', '--seed', '7']);
    try {
      const shown = await cli(['webhook', 'chaos']);
      expect(shown.stdout).toContain('seed 7');
      expect(shown.stdout).toContain('Replay exactly: scanctl webhook chaos --duplicate 1 --fail-first 2 --seed 7 --app app_demo');
      const before = hook.received.length;
      expect((await cli(['scan', 'simulate', '--user', 'member_chaos'])).code).toBe(0);
      await until(() => deliveries(cli), (d) => d[0]?.attempts === 1, 'attempt 1');
      expect((await deliveries(cli))[0]).toMatchObject({ status: 'pending', last_status: 500, last_error: 'failed by chaos' });
      await cli(['clock', 'advance', '30s']);
      await until(() => deliveries(cli), (d) => d[0]?.attempts === 2, 'attempt 2');
      expect(hook.received.length).toBe(before);
      await cli(['clock', 'advance', '1m']);
      const [done] = await until(() => deliveries(cli), (d) => d[0]?.status === 'succeeded', 'attempt 3');
      expect(done).toMatchObject({ attempts: 3, last_status: 200 });
      const got = hook.received.slice(before);
      expect(got).toHaveLength(2);
      expect(got[1]!.eventId).toBe(got[0]!.eventId);
      expect(got[1]!.body).toBe(got[0]!.body);
      // chaos off: the next delivery goes straight through, once.
      expect((await cli(['webhook', 'chaos', 'off'])).stdout).toContain('No delivery chaos on app_demo.');
      await cli(['scan', 'simulate', '--user', 'member_calm']);
      await until(() => deliveries(cli), (d) => d[1]?.status === 'succeeded', 'delivery after chaos off');
      expect((await deliveries(cli))[1]!.attempts).toBe(1);
    } finally {
      await serve.stop();
    }
  });

  it('the same --seed gives the same verdicts in a fresh emulator (a CI failure replays exactly)', async () => {
    const run = async () => {
      const { serve, cli } = await emulatorWithChaos(['--drop', '0.5', '--seed', '42']);
      try {
        expect((await cli(['scan', 'simulate', '--user', 'member_replay', '--count', '8'])).code).toBe(0);
        const list = await until(() => deliveries(cli), (d) => d.length === 8 && d.every((x) => x.attempts === 1), 'first attempts');
        return list.map((d) => d.status);
      } finally {
        await serve.stop();
      }
    };
    const first = await run();
    expect(first).toContain('succeeded');
    expect(first).toContain('pending');
    expect(await run()).toEqual(first);
  });
});
