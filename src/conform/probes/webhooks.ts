import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { CHOICES } from '../../contract/choices.js';
import { parseJson } from '../../contract/parse-json.js';
import { OPS } from '../../contract/operations/index.js';
import { WebhookEvent, WEBHOOK_HEADERS } from '../../contract/webhooks.js';
import { errorMessage } from '../../util/caught.js';
import { verifySignature } from '../../verify.js';
import type { ProbeKit } from '../kit.js';
import { Divergence, type Need, type Probe } from '../probe.js';
import type { Arrival } from '../receiver.js';
import { enrolledDevice, reportCompletedScan } from './device.js';

/** Real time a delivery may take to arrive after its scan is reported, and to wait for a copy that should not come. */
export const ARRIVAL_MS = CHOICES.conformDeliveryArrivalMs;
export const SETTLE_MS = CHOICES.conformSettleMs;

export const NEEDS: readonly Need[] = ['portal', 'receiver', 'attestation', 'scans'];

/** The app pointed at the receiver, an enrolled device, and one acknowledged scan.completed: shared by the WH-* probes. */
export interface Scene {
  appId: string;
  cookie: string;
  /** results_delivery_enabled before the run (false on a real account: it cannot be read). */
  resultsDelivery: boolean;
  secret: string;
  device: Awaited<ReturnType<typeof enrolledDevice>>;
  scanId: string;
  first: Arrival;
}

export function scene(kit: ProbeKit): Promise<Scene> {
  return kit.setUpOnce('webhookScene', setUp);
}

async function setUp(kit: ProbeKit): Promise<Scene> {
  const receiver = kit.options.receiver!;
  const { appId } = await kit.appIdentity();
  const control = kit.emulator?.control;
  const app = control ? await control.app(appId) : null;
  const cookie = kit.options.portalCookie ?? (await control!.portalLogin(app!.account_id));
  const patched = await kit.success(OPS.updateApp, { params: { app_id: appId }, cookie, body: { webhook_url: receiver.url } });
  // Put the app back as it was; on a real account the old URL is not readable, so it is cleared.
  kit.onCleanup(() => kit.api.call(OPS.updateApp, { params: { app_id: appId }, cookie, body: { webhook_url: app?.webhook_url ?? null } }));
  const secret =
    kit.options.webhookSecret ?? patched.body.webhook_secret ?? (control ? (await control.webhookSecret(appId)).webhook_secret : null);
  if (!secret) throw new Divergence('PATCH /v1/apps/{app_id}', 'the whsec_ secret (or --webhook-secret)', 'none');
  const device = await enrolledDevice(kit, 'wh');
  const scanId = kit.id('scan');
  await reportCompletedScan(kit, device, scanId);
  const [first] = await receiver.waitForScan(scanId, 1, ARRIVAL_MS);
  if (!first) throw new Divergence(`scan ${scanId} completed`, `a delivery within ${ARRIVAL_MS / 1000} s`, 'none arrived');
  return { appId, cookie, resultsDelivery: app?.results_delivery_enabled ?? false, secret, device, scanId, first };
}

export const header = (arrival: Arrival, name: string) => {
  const value = arrival.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * The first two retries of a refused delivery (CHOICE-9: 30 s, then 60 s). Each gap is checked as
 * "nothing for `quiet`, one within `quiet + more`" of the target's time (CHOICE-67): the emulator's
 * clock runs on in real time while the receiver is watched.
 */
const GAPS = [
  { expected: 30, quietMs: 25_000, moreMs: 6_000 },
  { expected: 60, quietMs: 50_000, moreMs: 12_000 },
] as const;

interface Gap {
  expected: number;
  quietS: number;
  byS: number;
  early: Arrival[];
  retried: Arrival[];
}

export interface Retry {
  first: Arrival[];
  gaps: Gap[];
}

async function watchRetries(kit: ProbeKit): Promise<Retry> {
  const { device } = await scene(kit);
  const receiver = kit.options.receiver!;
  const scanId = kit.id('scan');
  receiver.refuse.add(scanId);
  await reportCompletedScan(kit, device, scanId);
  const first = await receiver.waitForScan(scanId, 1, ARRIVAL_MS);
  if (first.length === 0) throw new Divergence(`scan ${scanId} completed`, `a delivery within ${ARRIVAL_MS / 1000} s`, 'none arrived');
  await sleep(SETTLE_MS);
  const gaps: Gap[] = [];
  for (const [i, gap] of GAPS.entries()) {
    const seen = receiver.forScan(scanId).length;
    await kit.passTime(gap.quietMs);
    await sleep(SETTLE_MS);
    const early = receiver.forScan(scanId).slice(seen);
    // The last retry watched is acknowledged: the delivery then ends.
    if (i === GAPS.length - 1) receiver.refuse.delete(scanId);
    await kit.passTime(gap.moreMs);
    const retried = (await receiver.waitForScan(scanId, seen + early.length + 1, ARRIVAL_MS)).slice(seen + early.length);
    await sleep(SETTLE_MS);
    gaps.push({ expected: gap.expected, quietS: gap.quietMs / 1000, byS: (gap.quietMs + gap.moreMs) / 1000, early, retried });
    if (retried.length === 0) break;
  }
  return { first: receiver.forScan(scanId).slice(0, first.length), gaps };
}

function retry(kit: ProbeKit): Promise<Retry> {
  return kit.setUpOnce('webhookRetries', watchRetries);
}

export const webhookProbes: readonly Probe[] = [
  {
    rule: 'WH-1',
    title: 'a delivery is a POST whose JSON body is {id, type, created_at, data}',
    requests: 8,
    needs: NEEDS,
    async run(kit) {
      const { first } = await scene(kit);
      if (first.method !== 'POST') throw new Divergence('a delivery', 'POST', first.method);
      const parsed = parseJson(z.record(z.string(), z.unknown()), first.raw.toString('utf8'));
      if (!parsed.ok) throw new Divergence('a delivery', 'a JSON object body', first.raw.toString('utf8').slice(0, 80));
      const keys = Object.keys(parsed.value).sort();
      if (keys.join(',') !== 'created_at,data,id,type')
        throw new Divergence('a delivery', '{created_at, data, id, type}', `{${keys.join(', ')}}`);
      return 'POST {id, type, created_at, data}';
    },
  },
  {
    rule: 'WH-2',
    title: "scan.completed carries the scan's fields, status matching type, and no measurement",
    requests: 0,
    needs: NEEDS,
    async run(kit) {
      const { first, scanId } = await scene(kit);
      const parsed = parseJson(WebhookEvent, first.raw.toString('utf8'));
      if (!parsed.ok) throw new Divergence('the scan.completed delivery', 'the documented fields only', parsed.message);
      const event = parsed.value;
      if (event.type !== 'scan.completed' || event.data.scan_id !== scanId)
        throw new Divergence('the scan.completed delivery', `scan.completed of ${scanId}`, `${event.type} of ${event.data.scan_id}`);
      return 'scan_id, app_id, status, occurred_at, host_user_ref, model_version';
    },
  },
  {
    rule: 'WH-4',
    title: 'Service-Signature is the hex HMAC-SHA256 of the raw body with the whsec_ secret',
    requests: 0,
    needs: NEEDS,
    async run(kit) {
      const { first, secret } = await scene(kit);
      try {
        verifySignature(first.raw, header(first, WEBHOOK_HEADERS.signature), secret);
      } catch (error) {
        throw new Divergence('the delivery', 'a valid Service-Signature', errorMessage(error));
      }
      return 'the signature verifies over the bytes as received';
    },
  },
  {
    rule: 'WH-6',
    title: "Service-Event-Type equals the body's type",
    requests: 0,
    needs: NEEDS,
    async run(kit) {
      const { first } = await scene(kit);
      const parsed = parseJson(z.object({ type: z.unknown() }), first.raw.toString('utf8'));
      const type = parsed.ok ? parsed.value.type : undefined;
      const presented = header(first, WEBHOOK_HEADERS.eventType);
      if (presented !== type) throw new Divergence('the delivery', `Service-Event-Type ${String(type)}`, presented ?? 'no header');
      return `${presented}`;
    },
  },
  {
    rule: 'WH-9',
    title: 'after refused attempts, the first retry comes 30 seconds later and the second 60 seconds after it',
    requests: 3,
    needs: [...NEEDS, 'clock-or-slow'],
    async run(kit) {
      const { gaps } = await retry(kit);
      for (const [i, gap] of gaps.entries()) {
        const request = `attempt ${i + 1} answered 500`;
        if (gap.early.length > 0)
          throw new Divergence(request, `no retry within ${gap.quietS} s`, `${gap.early.length} within ${gap.quietS} s`);
        if (gap.retried.length === 0) throw new Divergence(request, `a retry ${gap.expected} s later`, `none by ${gap.byS} s`);
      }
      return gaps.map((g) => `none within ${g.quietS} s, one by ${g.byS} s`).join('; then ');
    },
  },
  {
    rule: 'WH-7',
    title: 'a non-2xx answer is retried; a 2xx acknowledges',
    requests: 0,
    needs: [...NEEDS, 'clock-or-slow'],
    async run(kit) {
      const { gaps } = await retry(kit);
      const retried = gaps.flatMap((g) => g.retried);
      if (retried.length === 0) throw new Divergence('a delivery answered 500', 'a retry', 'none');
      return `answered 500, retried; the last retry answered ${retried.at(-1)!.status}`;
    },
  },
  {
    rule: 'WH-5',
    title: 'Service-Event-Id is the same on every attempt',
    requests: 0,
    needs: [...NEEDS, 'clock-or-slow'],
    async run(kit) {
      const { first, gaps } = await retry(kit);
      const ids = new Set([...first, ...gaps.flatMap((g) => [...g.early, ...g.retried])].map((a) => header(a, WEBHOOK_HEADERS.eventId)));
      if (ids.size !== 1) throw new Divergence('the attempts of one delivery', 'one Service-Event-Id', [...ids].join(', '));
      return 'one event id across attempts';
    },
  },
  {
    rule: 'WH-10',
    title: 'a duplicate report of a scan_id does not send its delivery again',
    requests: 4,
    needs: NEEDS,
    async run(kit) {
      const { device } = await scene(kit);
      const receiver = kit.options.receiver!;
      const scanId = kit.id('scan');
      const occurredAt = new Date(Date.now() - 60_000).toISOString();
      await reportCompletedScan(kit, device, scanId, occurredAt);
      await reportCompletedScan(kit, device, scanId, occurredAt);
      await receiver.waitForScan(scanId, 1, ARRIVAL_MS);
      await sleep(SETTLE_MS);
      const arrivals = receiver.forScan(scanId);
      if (arrivals.length !== 1)
        throw new Divergence(`scan ${scanId} reported completed twice`, 'one delivery', `${arrivals.length} deliveries`);
      return 'reported twice, delivered once';
    },
  },
];
