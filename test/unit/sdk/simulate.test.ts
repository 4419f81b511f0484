import { afterEach, describe, expect, it, vi } from 'vitest';
import { simulate, SimulationError, type SimEvent, type SimulateOptions } from '../../../src/sdk/simulate.js';
import { ApiCallError } from '../../../src/client/http.js';
import { DEMO, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { RESULT, setResultsDelivery, usageOf } from '../../helpers/device.js';

const BASE = 'http://emulator.test';

/** Routes the engine's fetch calls into the hono app; `intercept` may answer instead. */
function wire(emu: TestEmulator, intercept?: (method: string, path: string) => Response | undefined) {
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const forced = intercept?.(init?.method ?? 'GET', url.pathname);
    if (forced) return forced;
    return emu.app.request(`${url.pathname}${url.search}`, init);
  });
}

function options(emu: TestEmulator, overrides: Partial<SimulateOptions> = {}): SimulateOptions {
  return {
    baseUrl: BASE,
    secretKey: DEMO.testSecret,
    hostUserRef: 'member_1',
    outcome: 'completed',
    count: 1,
    offlineLateMs: null,
    result: RESULT,
    noScope: false,
    duplicateReport: false,
    uploadRetries: 2,
    installationId: null,
    reinstall: false,
    bundleId: DEMO.bundleId,
    teamId: DEMO.teamId,
    appVersion: '1.0.0',
    sleep: (ms) => emu.advance(ms),
    ...overrides,
  };
}

const stepNames = (events: SimEvent[]) => events.flatMap((e) => (e.type === 'step' ? [e.step.step] : []));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the simulated SDK (engine)', () => {
  it('DEV-1, DEV-4, DEV-5: enrolls, verifies the model, gets the key, reports the scan; emits every step and one summary', async () => {
    const emu = testEmulator();
    wire(emu);
    const events: SimEvent[] = [];
    const [summary] = await simulate(options(emu), (e) => events.push(e));
    expect(stepNames(events)).toEqual(['mint', 'enroll', 'model', 'model_key', 'mesh_fit', 'scan_started', 'scan_reported', 'refused']);
    expect(summary).toMatchObject({
      state: 'recorded',
      env: 'test',
      billable: false,
      result: 'refused',
      refusal: { code: 'results_delivery_disabled' },
    });
    expect(events.filter((e) => e.type === 'scan')).toHaveLength(1);
    const scans = (await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data;
    expect(scans[0]).toMatchObject({ id: summary!.scan_id, installation_id: summary!.installation_id, status: 'completed' });
  });

  it('DEV-6, BILL-4: an offline-late live scan across a month boundary syncs with a new token and is billed in the earlier month', async () => {
    const emu = testEmulator({ startIso: '2026-12-01T00:30:00.000Z' });
    wire(emu);
    const events: SimEvent[] = [];
    const [summary] = await simulate(options(emu, { secretKey: DEMO.liveSecret, offlineLateMs: 3600_000 }), (e) => events.push(e));
    expect(summary).toMatchObject({ occurred_at: '2026-11-30T23:30:00.000Z', billable: true, env: 'live' });
    const mints = events.flatMap((e) => (e.type === 'step' && e.step.step === 'mint' ? [e.step.purpose] : []));
    expect(mints).toEqual(['scan', 'sync']);
    expect(await usageOf(emu, '2026-11')).toMatchObject({ monthly_active_users: 1, billable_scans: 1 });
    expect(await usageOf(emu, '2026-12')).toMatchObject({ monthly_active_users: 0, billable_scans: 0 });
  });

  it('SES-7: --no-scope shows the refusal and records nothing', async () => {
    const emu = testEmulator();
    wire(emu);
    const summaries = await simulate(options(emu, { noScope: true, count: 2 }), () => undefined);
    expect(summaries.map((s) => [s.state, s.refusal?.code])).toEqual([
      ['refused', 'insufficient_scope'],
      ['refused', 'insufficient_scope'],
    ]);
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data).toEqual([]);
  });

  it('DEV-2: a wrong team id is refused at enrollment and no scan runs', async () => {
    const emu = testEmulator();
    wire(emu);
    const summaries = await simulate(options(emu, { teamId: 'XXXXXXXXXX', count: 3 }), () => undefined);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ state: 'refused', scan_id: null, refusal: { step: 'enroll', code: 'attestation_invalid' } });
  });

  it('DEV-1, DEV-3: a known installation skips enrollment; blocked, its next scan fails to start; a reinstall enrolls again', async () => {
    const emu = testEmulator();
    wire(emu);
    await simulate(options(emu, { installationId: 'phone-1' }), () => undefined);
    const events: SimEvent[] = [];
    await simulate(options(emu, { installationId: 'phone-1', appVersion: '1.1.0' }), (e) => events.push(e));
    const enroll = events.find((e) => e.type === 'step' && e.step.step === 'enroll');
    expect(enroll).toMatchObject({ step: { skipped: true } });
    await emu.call('POST', '/_scanctl/installations/phone-1/block');
    const [blocked] = await simulate(options(emu, { installationId: 'phone-1' }), () => undefined);
    expect(blocked).toMatchObject({ state: 'refused', refusal: { step: 'model_key', code: 'installation_blocked' } });
    await emu.call('POST', '/_scanctl/installations/phone-1/unblock');
    const again: SimEvent[] = [];
    await simulate(options(emu, { installationId: 'phone-1', reinstall: true }), (e) => again.push(e));
    expect(again.find((e) => e.type === 'step' && e.step.step === 'enroll')).toMatchObject({ step: { reenrolled: true, enrollments: 2 } });
  });

  it('SES-10: a 429 rate_limited mint is retried after its Retry-After (bounded)', async () => {
    const emu = testEmulator({ rateLimitPerSecond: 1 });
    wire(emu);
    const events: SimEvent[] = [];
    const summaries = await simulate(options(emu, { count: 2 }), (e) => events.push(e));
    expect(summaries.every((s) => s.state === 'recorded')).toBe(true);
    const retry = events.find((e) => e.type === 'step' && e.step.step === 'retry');
    expect(retry).toMatchObject({ step: { at: 'mint', attempt: 1, wait_ms: 1000 } });
  });

  it('DEV-8, BILL-5: --duplicate-report reports and uploads twice: one scan, one stored result, one of each event', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    wire(emu);
    const [summary] = await simulate(options(emu, { duplicateReport: true }), () => undefined);
    expect(summary).toMatchObject({ result: 'stored', state: 'recorded' });
    const n = (sql: string) => (emu.store.db.prepare(sql).get(summary!.scan_id) as { n: number }).n;
    expect(n('SELECT count(*) AS n FROM results WHERE scan_id = ?')).toBe(1);
    expect(n('SELECT uploads AS n FROM results WHERE scan_id = ?')).toBe(2);
    expect(n('SELECT count(*) AS n FROM events WHERE scan_id = ?')).toBe(2);
  });

  it('--upload-retries: a transient upload failure is retried; delivery off is never retried (DEV-7)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    let failures = 1;
    wire(emu, (method, path) => {
      if (method === 'PUT' && path.endsWith('/result') && failures-- > 0) {
        return new Response(JSON.stringify({ error: { type: 'api_error', code: 'fault_injected', message: 'down' } }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      return undefined;
    });
    const events: SimEvent[] = [];
    const [ok] = await simulate(options(emu), (e) => events.push(e));
    expect(ok!.result).toBe('stored');
    expect(events.some((e) => e.type === 'step' && e.step.step === 'retry' && e.step.at === 'result_upload')).toBe(true);

    await setResultsDelivery(emu, false);
    let puts = 0;
    wire(emu, (method) => {
      if (method === 'PUT') puts += 1;
      return undefined;
    });
    const off = await simulate(options(emu, { count: 3 }), () => undefined);
    expect(off.map((s) => s.result)).toEqual(['refused', 'skipped', 'skipped']);
    expect(puts).toBe(1);
  });

  it('an unexpected failure breaks the run with the step and the error', async () => {
    const emu = testEmulator();
    wire(emu);
    const error = await simulate(options(emu, { secretKey: 'sk_test_doesNotExist000000000000' }), () => undefined).catch((e) => e);
    expect(error).toBeInstanceOf(SimulationError);
    expect(error.step).toBe('mint');
    expect(error.error).toBeInstanceOf(ApiCallError);
    expect((error.error as ApiCallError).error?.code).toBe('invalid_api_key');
  });
});
