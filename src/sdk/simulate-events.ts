import type { FetchLike } from '../client/api.js';
import type { KeyEnv } from '../contract/credentials.js';
import type { ScanOutcome, ScanStatus } from '../contract/device.js';
import { errorMessage } from '../util/caught.js';

// What the simulated SDK is told and what it emits: the contract between the engine and its renderers.

export interface SimulateOptions {
  baseUrl: string;
  /** How requests are sent (default: the global fetch); tests pass the emulator's app.request. */
  fetch?: FetchLike;
  secretKey: string;
  hostUserRef: string;
  outcome: ScanOutcome;
  count: number;
  /** The scan happened offline this long before now; it syncs now with a fresh token (DEV-6). */
  offlineLateMs: number | null;
  result: Record<string, unknown>;
  /** Mint without scan.create (SES-7). */
  noScope: boolean;
  /** Report each outcome (and result) twice, as a device whose acknowledgement was lost (BILL-5, DEV-8). */
  duplicateReport: boolean;
  /** How often a transient failure (5xx, 429, network) of the result upload is retried. */
  uploadRetries: number;
  /** An installation the device already has; without one a fresh install enrolls. */
  installationId: string | null;
  /** The app was reinstalled: enrollment runs again. */
  reinstall: boolean;
  bundleId: string;
  teamId: string;
  appVersion: string;
  /** Ends the run before the next scan starts. */
  signal?: AbortSignal;
  /** Real-time waits (retries, Retry-After); injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** Device-side refusals the simulator is meant to show: printed as refusals, not failures. */
export const EXPECTED_REFUSALS = [
  'insufficient_scope',
  'attestation_invalid',
  'installation_blocked',
  'results_delivery_disabled',
] as const;

export type StepName =
  | 'mint'
  | 'enroll'
  | 'model'
  | 'model_key'
  | 'mesh_fit'
  | 'scan_started'
  | 'offline'
  | 'scan_reported'
  | 'duplicate_report'
  | 'result_upload';

export interface Refusal {
  step: StepName;
  status: number;
  code: string;
  message: string;
}

export type SimStep =
  | { step: 'mint'; purpose: 'scan' | 'sync'; env: KeyEnv; expires_at: string; scopes: string[] }
  | { step: 'enroll'; installation_id: string; reenrolled: boolean; enrollments: number; status: string; skipped?: boolean }
  | { step: 'model'; model_version: string; size: number; sha256: string; verified: boolean }
  | { step: 'model_key'; model_version: string }
  | { step: 'mesh_fit'; fit_id: string }
  | { step: 'scan_started'; scan_id: string; occurred_at: string }
  | { step: 'offline'; scan_id: string; occurred_at: string; late_ms: number }
  | {
      step: 'scan_reported';
      scan_id: string;
      status: ScanStatus;
      occurred_at: string;
      billable: boolean;
      duplicate: boolean;
      replayed: boolean;
    }
  | { step: 'duplicate_report'; scan_id: string; duplicate: boolean; reports: number }
  | { step: 'result_upload'; scan_id: string; stored: boolean; duplicate: boolean; skipped?: 'delivery_off' }
  | { step: 'retry'; at: StepName; attempt: number; wait_ms: number; reason: string }
  | { step: 'refused'; refusal: Refusal };

/** One simulated scan, as `--json` prints it. */
export interface ScanSummary {
  object: 'simulated_scan';
  index: number;
  host_user_ref: string;
  env: KeyEnv;
  installation_id: string;
  scan_id: string | null;
  outcome: ScanOutcome;
  /** recorded: the service recorded the scan; refused: an expected refusal stopped it before. */
  state: 'recorded' | 'refused';
  occurred_at: string | null;
  billable: boolean | null;
  result: 'stored' | 'duplicate' | 'refused' | 'skipped' | 'none';
  refusal: Refusal | null;
  steps: SimStep[];
}

export type SimEvent = { type: 'step'; index: number; step: SimStep } | { type: 'scan'; summary: ScanSummary };

/** A flow that broke unexpectedly: the step and the error. */
export class SimulationError extends Error {
  constructor(
    readonly step: StepName,
    readonly error: unknown,
    readonly summary: ScanSummary | null,
  ) {
    super(`${step}: ${errorMessage(error)}`);
    this.name = 'SimulationError';
  }
}
