import { setTimeout as sleep } from 'node:timers/promises';
import type { ScanResultUpload } from '../../contract/device.js';
import { OPS } from '../../contract/operations/index.js';
import { parseJson } from '../../contract/parse-json.js';
import { WEBHOOK_HEADERS, WebhookEvent } from '../../contract/webhooks.js';
import { errorMessage } from '../../util/caught.js';
import { verifySignature } from '../../verify.js';
import type { ProbeKit } from '../kit.js';
import { Divergence, type Probe } from '../probe.js';
import type { Arrival } from '../receiver.js';
import { reportCompletedScan } from './device.js';
import { ARRIVAL_MS, header, NEEDS, scene, SETTLE_MS } from './webhooks.js';

/** A result as the member's app received it (the spec's illustrated structure). */
const RESULT = { modelVersion: 'conform', measurements: { bodyFatPercent: 21.4, bmi: 23.1, girths: { waistCm: 81.5, hipCm: 97.2 } } };

/** With results delivery on for the run: one scan, its result uploaded twice, and what reached the receiver. */
export interface Results {
  scanId: string;
  uploads: ScanResultUpload[];
  completed: WebhookEvent | null;
  available: Array<{ arrival: Arrival; event: WebhookEvent }>;
}

const results = (kit: ProbeKit): Promise<Results> => kit.setUpOnce('results', setUp);

async function setUp(kit: ProbeKit): Promise<Results> {
  const { appId, cookie, resultsDelivery, device } = await scene(kit);
  const params = { app_id: appId };
  await kit.success(OPS.updateApp, { params, cookie, body: { results_delivery_enabled: true } });
  kit.onCleanup(() => kit.api.call(OPS.updateApp, { params, cookie, body: { results_delivery_enabled: resultsDelivery } }));
  const scanId = kit.id('scan');
  await reportCompletedScan(kit, device, scanId);
  const sdk = kit.device(device.token);
  const body = { installation_id: device.installationId, result: RESULT };
  const uploads = [await sdk.uploadResult(scanId, body), await sdk.uploadResult(scanId, body)];
  const receiver = kit.options.receiver!;
  await receiver.waitForScan(scanId, 2, ARRIVAL_MS);
  await sleep(SETTLE_MS);
  const events = receiver.forScan(scanId).flatMap((arrival) => {
    const parsed = parseJson(WebhookEvent, arrival.raw.toString('utf8'));
    return parsed.ok ? [{ arrival, event: parsed.value }] : [];
  });
  return {
    scanId,
    uploads,
    completed: events.find((e) => e.event.type === 'scan.completed')?.event ?? null,
    available: events.filter((e) => e.event.type === 'scan.results_available'),
  };
}

const RESULT_NEEDS = [...NEEDS] as const;

export const resultProbes: readonly Probe[] = [
  {
    rule: 'WH-3',
    title: 'with results delivery on, scan.results_available carries the result exactly as uploaded, once',
    requests: 6,
    needs: RESULT_NEEDS,
    async run(kit) {
      const { available, scanId } = await results(kit);
      const first = available[0];
      if (!first) throw new Divergence(`scan ${scanId}, result uploaded`, 'a scan.results_available delivery', 'none arrived');
      const data = first.event.data;
      const result = 'result' in data ? JSON.stringify(data.result) : 'none';
      if (result !== JSON.stringify(RESULT)) throw new Divergence('the scan.results_available delivery', JSON.stringify(RESULT), result);
      // One delivery is one event: a copy of it (at least once) keeps its Service-Event-Id.
      const events = new Set(available.map((a) => a.event.id));
      if (events.size !== 1) throw new Divergence(`scan ${scanId}, result uploaded twice`, 'one results event', `${events.size} events`);
      return 'the result byte for byte, one event for two uploads';
    },
  },
  {
    rule: 'DEV-8',
    title: 'a re-uploaded result is the same result: stored once',
    requests: 0,
    needs: RESULT_NEEDS,
    async run(kit) {
      const { uploads } = await results(kit);
      const [first, second] = uploads;
      if (first?.duplicate !== false || second?.duplicate !== true)
        throw new Divergence(
          'PUT /v1/scans/{scan_id}/result twice',
          'duplicate false, then true',
          `${String(first?.duplicate)}, then ${String(second?.duplicate)}`,
        );
      return 'stored, then duplicate';
    },
  },
  {
    rule: 'WH-12',
    title: 'scan.results_available joins scan.completed on scan_id',
    requests: 0,
    needs: RESULT_NEEDS,
    async run(kit) {
      const { completed, available, scanId } = await results(kit);
      const joined = available[0]?.event.data.scan_id;
      if (!completed || completed.data.scan_id !== scanId || joined !== scanId)
        throw new Divergence(
          `scan ${scanId}`,
          'scan.completed and scan.results_available with its scan_id',
          `${completed?.data.scan_id}, ${joined}`,
        );
      return `both name ${scanId.replace(kit.prefix, 'conform_<run>')}`;
    },
  },
  {
    rule: 'WH-11',
    title: 'scan.results_available is signed and headed as scan.completed is',
    requests: 0,
    needs: RESULT_NEEDS,
    async run(kit) {
      const { available } = await results(kit);
      const { secret } = await scene(kit);
      const first = available[0];
      if (!first) throw new Divergence('scan.results_available', 'a delivery', 'none arrived');
      try {
        verifySignature(first.arrival.raw, header(first.arrival, WEBHOOK_HEADERS.signature), secret);
      } catch (error) {
        throw new Divergence('the scan.results_available delivery', 'a valid Service-Signature', errorMessage(error));
      }
      const type = header(first.arrival, WEBHOOK_HEADERS.eventType);
      const id = header(first.arrival, WEBHOOK_HEADERS.eventId);
      if (type !== first.event.type || id !== first.event.id)
        throw new Divergence('the scan.results_available delivery', 'Service-Event-Type and -Id of the body', `${type}, ${id}`);
      return 'signature, event id and type headers as for scan.completed';
    },
  },
  {
    rule: 'DEL-2',
    title: "DELETE /v1/results removes the member's stored results",
    requests: 2,
    needs: RESULT_NEEDS,
    async run(kit) {
      await results(kit);
      const { device } = await scene(kit);
      const member = kit.member(device.member);
      const first = await kit.success(OPS.deleteResults, { bearer: kit.options.key, query: { host_user_ref: member } });
      const again = await kit.success(OPS.deleteResults, { bearer: kit.options.key, query: { host_user_ref: member } });
      if (first.body.deleted !== 1 || again.body.deleted !== 0)
        throw new Divergence('DELETE /v1/results twice', 'deleted 1, then 0', `${first.body.deleted}, then ${again.body.deleted}`);
      return 'deleted 1, then 0';
    },
  },
];
