import { afterEach, describe, expect, it } from 'vitest';
import { WaitResult } from '../../src/contract/wait.js';
import { WEBHOOK_RETRY_GAPS_MS } from '../../src/contract/choices.js';
import { SCANCTL_SHELL, runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { startReceiver, type Behaviour, type Receiver } from '../helpers/webhook-receiver.js';

/** The last stdout line, checked against the documented schema of a wait's JSON. */
function waitResult(stdout: string): WaitResult {
  return WaitResult.parse(JSON.parse(stdout.trim().split('\n').at(-1)!));
}

/** `scan simulate --wait --play-retries` and `webhook wait` with the built CLI, a real serve or exec, and a real receiver. */
describe('retries played on the virtual clock (built CLI, real receiver)', () => {
  let serve: ServeProcess | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await serve?.stop();
    await receiver?.close();
    serve = receiver = undefined;
  });

  async function serveWithReceiver(behaviour: Behaviour, serveArgs: string[] = []): Promise<string[]> {
    serve = await startServe(serveArgs);
    receiver = await startReceiver(DEMO.webhookSecret, behaviour);
    const at = ['--base-url', serve.baseUrl];
    expect((await runCli(['app', 'update', '--webhook-url', receiver.url, ...at])).code).toBe(0);
    return at;
  }

  it('CHOICE-41, WH-5, WH-7, WH-9: a first attempt that fails is retried at its due time on the moved clock and acknowledged: exit 0, the attempt log printed', async () => {
    const at = await serveWithReceiver((n) => (n === 1 ? 500 : 204));
    const run = await runCli(['scan', 'simulate', '--user', 'member_p', '--wait', '--play-retries', '--json', ...at]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = waitResult(run.stdout);
    expect(result).toMatchObject({ ok: true, until: 'acknowledged', reason: null, acknowledged: 1, deliveries: 1 });
    expect(result.clock_moves).toHaveLength(1);
    const [log] = result.log!;
    expect(log!.attempts.map((a) => a.status)).toEqual([500, 204]);
    // The second attempt went out when it was due, and the clock moved only that far (running clock: a little real time on top).
    const gap = Date.parse(log!.attempts[1]!.started_at) - Date.parse(log!.attempts[0]!.started_at);
    expect(gap).toBeGreaterThanOrEqual(WEBHOOK_RETRY_GAPS_MS[0]!);
    expect(gap).toBeLessThan(WEBHOOK_RETRY_GAPS_MS[0]! + 10_000);
    const late = Date.parse(log!.attempts[1]!.started_at) - Date.parse(result.clock_moves[0]!.to);
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(5_000);
    expect(receiver!.received.map((d) => d.signatureValid)).toEqual([true, true]);
    const [first, retry] = receiver!.received;
    expect(retry!.headers['service-event-id']).toBe(first!.headers['service-event-id']);
  });

  it('CHOICE-41, WH-9: with --frozen-clock, a receiver that always fails ends exhausted after 17 attempts: exit 5, each attempt in the log', async () => {
    const at = await serveWithReceiver(() => 500, ['--frozen-clock']);
    const run = await runCli(['scan', 'simulate', '--user', 'member_x', '--wait', '--play-retries', '--timeout', '60s', ...at]);
    expect(run.code).toBe(5);
    expect(receiver!.received).toHaveLength(17);
    expect(run.stderr).toMatch(/exhausted its attempts \(last status 500, HTTP 500\)/);
    expect(run.stdout).toMatch(/failed after 17 attempts/);
    expect(run.stdout).toMatch(/^ {2}#17 {2}\S+Z {2}500$/m);
    expect(run.stdout).toMatch(/clock: moved 16 times to play retries/);
    // Each retry at its gap of the schedule (30 s doubling, at most 6 h), to the millisecond on the frozen clock.
    const times = [...run.stdout.matchAll(/^ {2}#\d+ {2}(\S+Z)/gm)].map((m) => Date.parse(m[1]!));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(WEBHOOK_RETRY_GAPS_MS);
    // The frozen clock stands where the last attempt was due, and no further.
    const clock = JSON.parse((await runCli(['clock', 'show', '--json', ...at])).stdout);
    const last = /^ {2}#17 {2}(\S+Z)/m.exec(run.stdout)![1];
    expect(clock.now).toBe(last);
  });

  it('CHOICE-41: works under scanctl exec (frozen clock): the retry is played and acknowledged, exit 0', async () => {
    receiver = await startReceiver(DEMO.webhookSecret, (n) => (n === 1 ? 503 : 200));
    const cli = SCANCTL_SHELL;
    const script = `${cli} app update --webhook-url ${receiver.url} >/dev/null && ${cli} scan simulate --user member_e --wait --play-retries --json`;
    const run = await runCli(['exec', '--frozen-clock', '--', 'sh', '-c', script]);
    expect(run.code).toBe(0);
    const result = waitResult(run.stdout);
    expect(result).toMatchObject({ ok: true, acknowledged: 1 });
    expect(result.log![0]!.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(result.clock_moves).toHaveLength(1);
  });

  it('CHOICE-44: refused with one line and exit 2 against a base URL that is not an emulator, before any scan is played', async () => {
    receiver = await startReceiver(DEMO.webhookSecret, () => 404);
    const origin = new URL(receiver.url).origin;
    const env = { SCANCTL_SECRET_KEY: DEMO.testSecret };
    const simulate = await runCli(['scan', 'simulate', '--user', 'm', '--wait', '--play-retries', '--base-url', origin], { env });
    expect(simulate.code).toBe(2);
    expect(simulate.stderr.split('\n')[0]).toBe(
      `scanctl: ${origin} is not a scanctl emulator: --play-retries needs the emulator's control plane (its deliveries and virtual clock)`,
    );
    const wait = await runCli(['webhook', 'wait', '--scan', 'scn_1', '--base-url', origin]);
    expect(wait.code).toBe(2);
    expect(wait.stderr).toMatch(/is not a scanctl emulator: webhook wait needs/);
    expect(wait.stderr).not.toMatch(/\n\s+at /);
    // Nothing but the two questions of what it is: no session minted, no scan sent, no clock moved.
    expect(receiver.received.map((d) => d.method)).toEqual(['GET', 'GET']);
  });

  it('CHOICE-42: webhook wait --until attempted, acknowledged (with and without --play-retries), settled, exhausted; --scan, --user, --event', async () => {
    const at = await serveWithReceiver((n) => (n === 1 ? 500 : 204));
    const simulated = await runCli(['scan', 'simulate', '--user', 'member_w', '--json', ...at]);
    const scanId: string = JSON.parse(simulated.stdout.trim().split('\n').at(-1)!).scan_id;
    const wait = (args: string[]) => runCli(['webhook', 'wait', ...args, '--json', ...at]);

    const attempted = await wait(['--scan', scanId, '--until', 'attempted']);
    expect(attempted.code).toBe(0);
    expect(waitResult(attempted.stdout).log![0]!.attempts.map((a) => a.status)).toEqual([500]);

    // The retry is due 30 s later on the emulator's clock: waiting in real time for 1 s is not enough.
    const tooSoon = await wait(['--scan', scanId, '--timeout', '1s']);
    expect(tooSoon.code).toBe(5);
    expect(waitResult(tooSoon.stdout)).toMatchObject({ ok: false, reason: 'timeout', clock_moves: [] });

    const acknowledged = await wait(['--user', 'member_w', '--play-retries', '--attempts', '2']);
    expect(acknowledged.code).toBe(0);
    expect(waitResult(acknowledged.stdout)).toMatchObject({ ok: true, until: 'acknowledged', acknowledged: 1 });

    expect((await wait(['--scan', scanId, '--until', 'settled'])).code).toBe(0);
    const notExhausted = await wait(['--scan', scanId, '--until', 'exhausted']);
    expect(notExhausted.code).toBe(5);
    expect(waitResult(notExhausted.stdout)).toMatchObject({ ok: false, reason: 'unmet', delivery: { status: 'succeeded' } });

    // Another member's scan, to a receiver that now always fails.
    receiver!.behaviour = () => 500;
    const second = await runCli(['scan', 'simulate', '--user', 'member_v', '--json', ...at]);
    const secondScan: string = JSON.parse(second.stdout.trim().split('\n').at(-1)!).scan_id;
    const deliveries = JSON.parse((await runCli(['webhook', 'deliveries', '--scan', secondScan, '--json', ...at])).stdout);
    const eventId: string = deliveries.data[0].event_id;
    const members = JSON.parse((await runCli(['webhook', 'deliveries', '--user', 'member_v', '--json', ...at])).stdout);
    expect(members.data.map((d: { scan_id: string }) => d.scan_id)).toEqual([secondScan]);
    const failed = await wait(['--event', eventId, '--play-retries']);
    expect(failed.code).toBe(5);
    expect(waitResult(failed.stdout)).toMatchObject({ ok: false, reason: 'failed', delivery: { attempts: 17, last_status: 500 } });
    const exhausted = await runCli(['webhook', 'wait', '--user', 'member_v', '--until', 'exhausted', ...at]);
    expect(exhausted.code).toBe(0);
    expect(exhausted.stdout).toMatch(/webhooks: 1 delivery exhausted \(0 acknowledged\)/);
  });

  it('CHOICE-43: webhook wait for a scan with no delivery fails at once (exit 5, reason none); bad flags exit 2', async () => {
    const at = await serveWithReceiver(() => 204);
    const none = await runCli(['webhook', 'wait', '--scan', 'scn_nothing', '--json', ...at]);
    expect(none.code).toBe(5);
    expect(waitResult(none.stdout)).toMatchObject({ ok: false, reason: 'none', deliveries: 0 });
    const both = await runCli(['webhook', 'wait', '--scan', 'a', '--user', 'b', ...at]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--scan and --user: name one of them/);
    expect((await runCli(['webhook', 'wait', '--scan', 'a', '--until', 'done', ...at])).code).toBe(2);
    expect((await runCli(['scan', 'simulate', '--user', 'm', '--play-retries', ...at])).code).toBe(2);
  });
});
