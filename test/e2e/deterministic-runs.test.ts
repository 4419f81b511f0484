import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * `serve --seed N --clock-start T --frozen-clock`: the same commands give byte-identical output
 * on every run (scans, deliveries with their attempts, the whole state), so users can snapshot it.
 */
const START = '2026-01-01T09:00:00Z';

interface RunOutput {
  ready: Record<string, unknown>;
  simulate: string;
  scans: string;
  deliveries: string;
  state: string;
}

describe('deterministic runs', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    // One receiver for every run: its URL is part of the state.
    receiver = await startReceiver(DEMO.webhookSecret);
  });
  afterAll(() => receiver.close());

  async function play(seed: number): Promise<RunOutput> {
    // The first POST of each run fails, so that a retry (played by the clock) is in the record too.
    const base = receiver.received.length;
    receiver.behaviour = (n) => (n === base + 1 ? 500 : 200);
    const serve = await startServe(['--seed', String(seed), '--clock-start', START, '--frozen-clock'], { db: ':memory:' });
    const cli = async (args: string[]) => {
      const result = await runCli(args, { env: { SCANCTL_BASE_URL: serve.baseUrl } });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    try {
      await cli(['app', 'update', '--webhook-url', receiver.url, '--results-delivery', 'on']);
      const simulate = await cli(['scan', 'simulate', '--user', 'member_1', '--json']);
      await cli(['scan', 'simulate', '--user', 'member_2', '--outcome', 'failed', '--json']);
      await cli(['session', 'mint', '--user', 'member_3']);
      await cli(['clock', 'advance', '2m']);
      const deliveries = await cli(['webhook', 'deliveries', '--json']);
      expect(JSON.parse(deliveries).data.map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      return {
        ready: serve.ready,
        simulate,
        scans: await cli(['scan', 'list', '--json']),
        deliveries,
        state: await cli(['state', 'export', '-']),
      };
    } finally {
      await serve.stop();
      rmSync(serve.dir, { recursive: true, force: true });
    }
  }

  it('the same seed, clock start and commands give byte-identical scans, deliveries and state', async () => {
    const first = await play(7);
    const second = await play(7);
    expect(first.ready).toMatchObject({ clock: '2026-01-01T09:00:00.000Z', frozen_clock: true, seed: 7 });
    expect(second.simulate).toBe(first.simulate);
    expect(second.scans).toBe(first.scans);
    expect(second.deliveries).toBe(first.deliveries);
    expect(second.state).toBe(first.state);

    // What is compared is not empty: scans with their ids, a retried delivery, minted sessions.
    const state = JSON.parse(first.state);
    expect(state.clock_offset_ms).toBe(120_000);
    expect(state.tables.scans).toHaveLength(2);
    expect(state.tables.sessions).toHaveLength(3);
    expect(state.tables.attempts.map((a: { status: number }) => a.status).sort()).toEqual([200, 200, 200, 500]);
    expect(
      JSON.parse(first.deliveries)
        .data.map((d: { attempts: number }) => d.attempts)
        .sort(),
    ).toEqual([1, 1, 2]);
  }, 120_000);

  it('another seed draws other ids and tokens', async () => {
    const tokens: string[] = [];
    for (const seed of [7, 8]) {
      const serve = await startServe(['--seed', String(seed), '--clock-start', START, '--frozen-clock'], { db: ':memory:' });
      try {
        const minted = await runCli(['session', 'mint', '--user', 'member_1', '--json'], { env: { SCANCTL_BASE_URL: serve.baseUrl } });
        tokens.push(JSON.parse(minted.stdout).session_token);
      } finally {
        await serve.stop();
        rmSync(serve.dir, { recursive: true, force: true });
      }
    }
    expect(tokens[0]).toMatch(/^vst_[A-Za-z0-9]{32}$/);
    expect(tokens[1]).not.toBe(tokens[0]);
  });
});
