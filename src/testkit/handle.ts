import type { App, UpdateAppRequest } from '../contract/apps.js';
import type { CheckpointCreated, CheckpointRestore } from '../contract/checkpoints.js';
import type { ClockState } from '../contract/control.js';
import type { ScanList } from '../contract/device.js';
import type { StateFile, StateImport, StateReset } from '../contract/state.js';
import type { WebhookDeliveryDetail, DeliveryStatus } from '../contract/webhooks.js';
import type { WaitUntil } from '../contract/wait.js';
import type { SimulateScanOptions } from './simulate-scan.js';
import type { ScanSummary } from '../sdk/simulate.js';

export type { SimulateScanOptions } from './simulate-scan.js';

export interface DeliveryQuery {
  status?: DeliveryStatus;
  /** A scan's id, as `ScanSummary.scan_id` gives it: null (a scan refused before it had an id) has no delivery, so the list is empty. */
  scanId?: string | null;
  eventId?: string;
  /** At most this many, newest first (default 1000). */
  limit?: number;
}

/** What `waitForDeliveries` waits for: without a target, everything due now; with one, `scanctl webhook wait`'s goal. */
export interface WaitForDeliveriesOptions {
  /** Real ms before it rejects (default 10 s). */
  timeoutMs?: number;
  /** As `ScanSummary.scan_id` gives it: null (a scan refused before it had an id) rejects at once, as it has no delivery to wait for. */
  scanId?: string | null;
  eventId?: string;
  hostUserRef?: string;
  /** Per event: attempted, acknowledged (the default), exhausted or settled (CHOICE-42). */
  until?: WaitUntil;
  /** And at least this many attempts (default 1 for attempted). */
  attempts?: number;
  /** Move the virtual clock to each retry, no further, once the failed attempt is recorded (CHOICE-41). */
  playRetries?: boolean;
}

/** A checkpoint of the whole state, as `checkpoint()` took it. */
export interface Checkpoint extends CheckpointCreated {
  /** Puts the state back as it was when the checkpoint was taken (one transaction). */
  restore(): Promise<CheckpointRestore>;
}

/** A running emulator, as `startEmulator` hands it over. */
export interface EmulatorHandle extends AsyncDisposable {
  readonly baseUrl: string;
  readonly port: number;
  /** The fixtures' first app and its test keys: what a backend under test is configured with. */
  readonly appId: string;
  readonly secretKey: string;
  readonly publishableKey: string;
  /** The app's whsec_ signing secret (issued at start when the fixtures give none). */
  readonly webhookSecret: string;
  readonly clock: {
    now(): Date;
    /** Moves forward by a duration ('90s', '15m', '24h') or milliseconds, playing every due webhook attempt on the way. */
    advance(duration: string | number): Promise<ClockState>;
    /** Moves forward to a time (never back), playing what falls due. */
    set(time: string | Date): Promise<ClockState>;
  };
  /** The app's settings, as the portal shows them. */
  app(): Promise<App>;
  /** PATCH /v1/apps/{app_id}: webhook_url and results_delivery_enabled (through the portal's login). */
  updateApp(patch: UpdateAppRequest): Promise<App>;
  /** One scan played as the SDK plays it; the same options and outcome as `scanctl scan simulate --json`. */
  simulateScan(options: SimulateScanOptions): Promise<ScanSummary>;
  /** `count` scans of one member, one session token each. */
  simulateScans(count: number, options: SimulateScanOptions): Promise<ScanSummary[]>;
  /** Recorded scans of the app, newest first. */
  scans(query?: { hostUserRef?: string; limit?: number }): Promise<ScanList['data']>;
  /** The app's webhook deliveries, newest first, each with its attempts and exact request. */
  deliveries(query?: DeliveryQuery): Promise<WebhookDeliveryDetail[]>;
  /**
   * Without a target: resolves when every delivery due now was attempted and recorded, and nothing
   * is in flight; retries wait on the virtual clock (advance it, or pass playRetries). With a goal
   * or a target (until, attempts, playRetries; scanId, eventId or hostUserRef, else the whole app):
   * those deliveries once each event reached `until` (`scanctl webhook wait`'s implementation);
   * rejects when one cannot. Rejects after `timeoutMs` real ms.
   */
  waitForDeliveries(options?: WaitForDeliveriesOptions): Promise<WebhookDeliveryDetail[]>;
  exportState(options?: { includeSecrets?: boolean }): Promise<StateFile>;
  importState(state: StateFile): Promise<StateImport>;
  /** Empties everything and loads the fixtures again; the clock keeps its time. */
  reset(): Promise<StateReset>;
  /**
   * Keeps the whole state (every table, the clock offset, pending deliveries); `restore()` puts it
   * back, as often as asked. A name already in use moves to this checkpoint.
   */
  checkpoint(name?: string): Promise<Checkpoint>;
  /** Puts back the checkpoint with this id or name. */
  restore(checkpoint: string): Promise<CheckpointRestore>;
  /** Stops the emulator: the port is free and nothing of it keeps the process alive. */
  close(): Promise<void>;
}
