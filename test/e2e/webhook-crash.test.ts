import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../helpers/emulator.js';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { playScans } from '../helpers/scans.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { control } from '../helpers/robust.js';
import { followDeliveries } from '../helpers/wait.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

type Delivery = { status: string };
const statuses = async (baseUrl: string, query = '') =>
  (await control<{ data: Delivery[] }>(baseUrl, `/webhooks/deliveries?app_id=${DEMO.appId}${query}`)).data.map((d) => d.status).sort();

describe('webhook crash safety (built CLI, kill -9)', () => {
  it('WH-8: deliveries pending or in flight at kill -9 are all delivered after a restart, with the same Service-Event-Id', async () => {
    // The receiver first hangs on two deliveries (in flight at the kill) and resets the rest (pending, retry in 30 s).
    const receiver: Receiver = await startReceiver(DEMO.webhookSecret, (n) => (n <= 2 ? 'hang' : 'reset'));
    cleanups.push(() => receiver.close());
    let serve: ServeProcess = await startServe();
    cleanups.push(() => serve.stop());
    const set = await runCli(['app', 'update', '--webhook-url', receiver.url, '--base-url', serve.baseUrl]);
    expect(set.code, set.stderr).toBe(0);

    const deliveries = await followDeliveries(serve.baseUrl, DEMO.appId);
    cleanups.push(async () => deliveries.close());
    const scanIds = await playScans(serve.baseUrl, 5);
    expect(scanIds).toHaveLength(5);
    await receiver.waitFor(5);
    const eventIds = new Set(receiver.received.map((d) => String(d.headers['service-event-id'])));
    expect(eventIds.size).toBe(5);
    // Wait until the database says: two in flight, three pending (each change comes with a stream event).
    await deliveries.changed.until(
      '2 in flight and 3 pending',
      async () => (await statuses(serve.baseUrl)).join() === 'in_flight,in_flight,pending,pending,pending',
    );
    deliveries.close();

    await serve.kill();
    receiver.behaviour = () => 200;
    const before = receiver.received.length;

    serve = await startServe([], { dir: serve.dir, db: serve.db });
    // The in-flight ones go back to pending, due now: sent at once on the restart.
    await receiver.waitFor(before + 2);
    const restarted = await followDeliveries(serve.baseUrl, DEMO.appId);
    cleanups.push(async () => restarted.close());
    // The pending ones are due 30 s after their failure on the emulator clock.
    const advance = await runCli(['clock', 'advance', '1m', '--base-url', serve.baseUrl]);
    expect(advance.code, advance.stderr).toBe(0);
    await restarted.changed.until(
      'every event acknowledged',
      async () => (await statuses(serve.baseUrl, '&status=succeeded')).length === 5,
    );
    const list = await runCli(['webhook', 'deliveries', '--status', 'succeeded', '--json', '--base-url', serve.baseUrl]);
    expect(JSON.parse(list.stdout).data).toHaveLength(5);

    const after = receiver.received.slice(before);
    expect(after.every((d) => d.signatureValid)).toBe(true);
    const deliveredIds = new Set(after.map((d) => String(d.headers['service-event-id'])));
    expect(deliveredIds).toEqual(eventIds);
    for (const d of after) expect(d.body.id).toBe(d.headers['service-event-id']);
    expect(new Set(after.map((d) => d.body.data.scan_id))).toEqual(new Set(scanIds));
  }, 60_000);
});
