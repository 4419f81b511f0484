import { createHash } from 'node:crypto';
import { ApiCallError } from '../client/http.js';
import type { KeyEnv } from '../contract/credentials.js';
import type { ScanStatus } from '../contract/device.js';
import { deviceId } from './device-ids.js';
import type { DeviceClient } from './client.js';
import type { ScanRun } from './scan-run.js';
import { SimulationError, type SimulateOptions, type StepName } from './simulate-events.js';

const REPORT_RETRIES = 2;

/** What the simulated app keeps from one scan of a run to the next. */
export interface AppMemory {
  /** A fresh install (or a reinstall) enrolls before its first scan only. */
  enrollmentChecked: boolean;
  enrolledThisRun: boolean;
  /** A known installation's skipped enrollment is shown once. */
  announcedKnown: boolean;
  modelVersion: string | null;
  /** DEV-7: after the service refused an upload, the SDK stops uploading for good. */
  uploadsDisabled: boolean;
  /** A fresh install names itself once, from the first token it sees. */
  installationId: string | null;
}

/** One scan's flow: the run's options and memory, this scan's record, the device client. */
export interface ScanFlow {
  options: SimulateOptions;
  env: KeyEnv;
  installationId: string;
  memory: AppMemory;
  scan: ScanRun;
  device: DeviceClient;
}

/** DEV-1: enrolls the installation (challenge, then attestation); false when the service refused. */
export async function enroll({ options, installationId, memory, scan, device }: ScanFlow): Promise<boolean> {
  const challenge = await scan.step('enroll', () => device.challenge());
  if (!challenge) return false;
  const enrolled = await scan.step('enroll', () =>
    device.enroll({
      installation_id: installationId,
      app_version: options.appVersion,
      attestation: { format: 'stub', challenge: challenge.challenge, bundle_id: options.bundleId, team_id: options.teamId },
    }),
  );
  if (!enrolled) return false;
  memory.enrolledThisRun = true;
  scan.record({
    step: 'enroll',
    installation_id: installationId,
    reenrolled: enrolled.reenrolled,
    enrollments: enrolled.enrollments,
    status: enrolled.status,
  });
  return true;
}

/** The current model, downloaded and checked against the manifest once per run; its version. */
export async function ensureModel({ memory, scan, device }: ScanFlow): Promise<string> {
  if (memory.modelVersion) return memory.modelVersion;
  const manifest = await scan.step('model', () => device.models());
  const current = manifest!.data.find((m) => m.current) ?? manifest!.data[0]!;
  const bytes = await scan.step('model', () => device.downloadModel(current.model_version));
  const sha256 = createHash('sha256').update(bytes!).digest('hex');
  const verified = sha256 === current.sha256 && bytes!.length === current.size;
  if (!verified)
    throw new SimulationError('model', new Error(`the model download does not match the manifest (sha256 ${sha256})`), scan.summary);
  scan.record({ step: 'model', model_version: current.model_version, size: current.size, sha256, verified });
  memory.modelVersion = current.model_version;
  return current.model_version;
}

/**
 * DEV-4: the model key. An installation the service does not know yet enrolls first (DEV-1); one
 * it knows kept its enrollment across app updates. null: refused (this scan ends); 'stop': the
 * enrollment it needed was refused (the run ends).
 */
export async function fetchModelKey(flow: ScanFlow, modelVersion: string) {
  const { installationId, memory, scan, device } = flow;
  const request = { installation_id: installationId, model_version: modelVersion, app_version: flow.options.appVersion };
  const announceKnown = () => {
    if (memory.enrolledThisRun || memory.announcedKnown) return;
    memory.announcedKnown = true;
    scan.record({ step: 'enroll', installation_id: installationId, reenrolled: false, enrollments: 0, status: 'enrolled', skipped: true });
  };
  let notEnrolled = false;
  const key = await scan.step('model_key', async () => {
    try {
      const answer = await device.modelKey(request);
      announceKnown();
      return answer;
    } catch (error) {
      const code = error instanceof ApiCallError ? error.error?.code : undefined;
      if (code === 'installation_not_enrolled' && !memory.enrolledThisRun) {
        notEnrolled = true;
        return null;
      }
      if (code === 'installation_blocked') announceKnown();
      throw error;
    }
  });
  if (!notEnrolled) return key;
  if (!(await enroll(flow))) return 'stop' as const;
  return scan.step('model_key', () => device.modelKey(request));
}

/** Reports a scan event; retries of one event reuse its Idempotency-Key, so a replay gets the first answer. */
export function reportScan(flow: ScanFlow, scanId: string, modelVersion: string, status: ScanStatus, occurredAt: string, step: StepName) {
  const idem = deviceId('idem', 20, 'report', scanId, step);
  const body = { installation_id: flow.installationId, scan_id: scanId, status, occurred_at: occurredAt, model_version: modelVersion };
  return flow.scan.step(step, () => flow.device.scanEvent(body, idem), REPORT_RETRIES);
}

/**
 * Starts the scan; its occurred_at, or null when the start was refused. DEV-6: a scan made
 * offline was queued on the device and syncs now with a freshly minted token.
 */
export async function startScan(flow: ScanFlow, scanId: string, modelVersion: string, now: number): Promise<string | null> {
  const { options, scan, device } = flow;
  if (options.offlineLateMs !== null) {
    const occurredAt = new Date(now - options.offlineLateMs).toISOString();
    scan.record({ step: 'offline', scan_id: scanId, occurred_at: occurredAt, late_ms: options.offlineLateMs });
    device.token = (await scan.mint(options, flow.env, 'sync')).token;
    return occurredAt;
  }
  const occurredAt = new Date(now).toISOString();
  if (!(await reportScan(flow, scanId, modelVersion, 'started', occurredAt, 'scan_started'))) return null;
  scan.record({ step: 'scan_started', scan_id: scanId, occurred_at: occurredAt });
  return occurredAt;
}

/** Uploads the result (twice when the report was duplicated); DEV-7: a refusal stops uploads for the run. */
export async function uploadResult(flow: ScanFlow, scanId: string): Promise<void> {
  const { options, memory, scan, device } = flow;
  const uploads = options.duplicateReport ? 2 : 1;
  for (let u = 0; u < uploads; u += 1) {
    if (memory.uploadsDisabled) {
      scan.summary.result = 'skipped';
      scan.record({ step: 'result_upload', scan_id: scanId, stored: false, duplicate: false, skipped: 'delivery_off' });
      return;
    }
    const body = { installation_id: flow.installationId, result: options.result };
    const uploaded = await scan.step('result_upload', () => device.uploadResult(scanId, body), options.uploadRetries);
    if (!uploaded) {
      if (scan.summary.refusal?.code === 'results_delivery_disabled') memory.uploadsDisabled = true;
      scan.summary.result = 'refused';
      return;
    }
    if (u === 0) scan.summary.result = uploaded.duplicate ? 'duplicate' : 'stored';
    scan.record({ step: 'result_upload', scan_id: scanId, stored: uploaded.stored, duplicate: uploaded.duplicate });
  }
}
