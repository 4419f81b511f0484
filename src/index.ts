/**
 * The package's library surface: what a customer's own server and its tests import.
 * `scanctl/verify` holds the signature check alone, for production servers (Node built-ins only).
 */
export { verifySignature, signPayload, SignatureVerificationError, WEBHOOK_HEADERS, type SignatureFailureReason } from './verify.js';
export { startEmulator, type StartEmulatorOptions, type FixturesInput } from './testkit/start-emulator.js';
export { streamLogger, type Logger } from './util/logger.js';
export type { EmulatorHandle, Checkpoint, DeliveryQuery, SimulateScanOptions, WaitForDeliveriesOptions } from './testkit/handle.js';
export type { WaitUntil } from './contract/wait.js';
export type { ScanSummary, SimStep, Refusal } from './sdk/simulate-events.js';
export type { App, UpdateAppRequest } from './contract/apps.js';
export type { ClockState } from './contract/control.js';
export type { WebhookDeliveryDetail, WebhookDelivery, DeliveryStatus, WebhookEvent } from './contract/webhooks.js';
export type { StateFile, StateImport, StateReset } from './contract/state.js';
export type { CheckpointCreated, CheckpointRestore } from './contract/checkpoints.js';
