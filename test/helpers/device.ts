import { expect } from 'vitest';
import { DEMO, portalCookie, type TestEmulator } from './emulator.js';

/** Shared steps of the device tests: mint, enroll, report, upload, through the hono app. */
export const MODEL = '2026.10.1';
export const RESULT = {
  modelVersion: MODEL,
  measurements: { bodyFatPercent: 21.4, bmi: 23.8, girths: { waistCm: 84.2, hipCm: 98.7 } },
};

let counter = 0;
export const uid = (prefix: string) => `${prefix}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;

export async function mint(emu: TestEmulator, user = 'member_1', options: { key?: string; scopes?: string[] } = {}): Promise<string> {
  const res = await emu.call('POST', '/v1/sessions', {
    key: options.key ?? DEMO.testSecret,
    json: { host_user_ref: user, ...(options.scopes ? { scopes: options.scopes } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.session_token as string;
}

export async function challenge(emu: TestEmulator, token: string): Promise<string> {
  const res = await emu.call('POST', '/v1/device/challenge', { key: token });
  expect(res.status).toBe(201);
  return res.body.challenge as string;
}

export async function enrollRaw(
  emu: TestEmulator,
  token: string,
  installationId: string,
  ids: { bundle_id?: string; team_id?: string; app_version?: string } = {},
) {
  const chl = await challenge(emu, token);
  return emu.call('POST', '/v1/device/enrollments', {
    key: token,
    json: {
      installation_id: installationId,
      ...(ids.app_version ? { app_version: ids.app_version } : {}),
      attestation: { format: 'stub', challenge: chl, bundle_id: ids.bundle_id ?? DEMO.bundleId, team_id: ids.team_id ?? DEMO.teamId },
    },
  });
}

export async function enroll(emu: TestEmulator, token: string, installationId = uid('ins')): Promise<string> {
  const res = await enrollRaw(emu, token, installationId);
  expect(res.status).toBeLessThan(300);
  return installationId;
}

export function event(
  emu: TestEmulator,
  token: string,
  body: { installation_id: string; scan_id: string; status: string; occurred_at?: string; model_version?: string },
  idempotencyKey: string | null = uid('idem'),
) {
  return emu.call('POST', '/v1/scan-events', {
    key: token,
    headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
    json: { occurred_at: new Date(emu.clock.now()).toISOString(), model_version: MODEL, ...body },
  });
}

export function upload(emu: TestEmulator, token: string, scanId: string, installationId: string, result: unknown = RESULT) {
  return emu.call('PUT', `/v1/scans/${scanId}/result`, { key: token, json: { installation_id: installationId, result } });
}

/** One whole scan: a fresh token, started, then the outcome. Returns the scan id. */
export async function runScan(
  emu: TestEmulator,
  options: { user?: string; key?: string; installation: string; outcome?: string; occurredAt?: string },
): Promise<string> {
  const token = await mint(emu, options.user ?? 'member_1', { key: options.key });
  const scanId = uid('scn');
  const res = await event(emu, token, {
    installation_id: options.installation,
    scan_id: scanId,
    status: options.outcome ?? 'completed',
    ...(options.occurredAt ? { occurred_at: options.occurredAt } : {}),
  });
  expect(res.status).toBe(201);
  return scanId;
}

export async function setResultsDelivery(emu: TestEmulator, on: boolean, webhookUrl?: string): Promise<void> {
  const cookie = await portalCookie(emu);
  const res = await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, {
    headers: { cookie },
    json: { results_delivery_enabled: on, ...(webhookUrl ? { webhook_url: webhookUrl } : {}) },
  });
  expect(res.status).toBe(200);
}

export async function usageOf(emu: TestEmulator, month: string) {
  const res = await emu.call('GET', `/_scanctl/usage?app_id=${DEMO.appId}&month=${month}`);
  expect(res.status).toBe(200);
  return res.body.data[0];
}

/** A completed scan of `user` on a freshly enrolled installation, ready for its result. */
export async function completedScan(emu: TestEmulator, user = 'member_1') {
  const token = await mint(emu, user);
  const installation = await enroll(emu, token);
  const scanId = uid('scn');
  expect((await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' })).status).toBe(201);
  return { token, installation, scanId };
}
