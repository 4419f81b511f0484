import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../helpers/emulator.js';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { playScans } from '../helpers/scans.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhook crash safety (built CLI, kill -9)', () => {
  it('WH-8: deliveries pending or in flight at kill -9 are all delivered after a restart, with the same Service-Event-Id', async () => {
    // The receiver first hangs on two deliveries (in flight at the kill) and resets the rest (pending, retry in 30 s).
    const receiver: Receiver = await startReceiver(DEMO.webhookSecret, (n) => (n <= 2 ? 'hang' : 'reset'));
    cleanups.push(() => receiver.close());
    let serve: ServeProcess = await startServe();
    cleanups.push(() => serve.stop());
    const set = await runCli(['app', 'update', '--webhook-url', receiver.url, '--base-url', serve.baseUrl]);
    expect(set.code, set.stderr).toBe(0);

    const scanIds = await playScans(serve.baseUrl, 5);
    expect(scanIds).toHaveLength(5);
    await receiver.waitFor(5);
    const eventIds = new Set(receiver.received.map((d) => String(d.headers['service-event-id'])));
    expect(eventIds.size).toBe(5);
    // Wait until the database says: two in flight, three pending.
    await until('2 in flight and 3 pending', async () => {
      const list = await runCli(['webhook', 'deliveries', '--json', '--base-url', serve.baseUrl]);
      const statuses = (JSON.parse(list.stdout).data as Array<{ status: string }>).map((d) => d.status).sort();
      return statuses.join() === 'in_flight,in_flight,pending,pending,pending';
    });

    await serve.kill();
    receiver.behaviour = () => 200;
    const before = receiver.received.length;

    serve = await startServe([], { dir: serve.dir, db: serve.db });
    // The in-flight ones go back to pending, due now: sent at once on the restart.
    await until('the in-flight deliveries', async () => receiver.received.length >= before + 2);
    // The pending ones are due 30 s after their failure on the emulator clock.
    const advance = await runCli(['clock', 'advance', '1m', '--base-url', serve.baseUrl]);
    expect(advance.code, advance.stderr).toBe(0);
    await until('every event acknowledged', async () => {
      const list = await runCli(['webhook', 'deliveries', '--status', 'succeeded', '--json', '--base-url', serve.baseUrl]);
      return JSON.parse(list.stdout).data.length === 5;
    });

    const after = receiver.received.slice(before);
    expect(after.every((d) => d.signatureValid)).toBe(true);
    const deliveredIds = new Set(after.map((d) => String(d.headers['service-event-id'])));
    expect(deliveredIds).toEqual(eventIds);
    for (const d of after) expect(d.body.id).toBe(d.headers['service-event-id']);
    expect(new Set(after.map((d) => d.body.data.scan_id))).toEqual(new Set(scanIds));
  }, 60_000);
});
