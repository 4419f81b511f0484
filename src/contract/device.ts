import { z } from 'zod';
import { listOf } from './list.js';
import { HostUserRef } from './sessions.js';
import { CHOICES } from './choices.js';
import { nestedDeeperThan } from '../util/raw-json.js';
import { Env } from './control.js';
import { DateTime, DateTimeInput, queryInteger } from './time.js';

/**
 * CHOICE-7: request and response shapes of the device routes (the spec names them but does not
 * show them). Every route takes `Authorization: Bearer vst_...` (a session token, never a key).
 */

/** Identifiers the device chooses itself (installation and scan ids): short, URL-safe. */
const DeviceId = z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1 to 100 characters of A-Z a-z 0-9 . _ : -');
/** The model versions the emulator serves, newest first. */
export const MODEL_VERSIONS = ['2026.10.1', '2026.07.2'] as const;

const ModelVersion = z.string().min(1).max(40);
const AppVersion = z.string().min(1).max(40);

export const DeviceChallenge = z.lazy(() =>
  z
    .object({ object: z.literal('challenge'), challenge: z.string(), expires_at: DateTime })
    .meta({ id: 'DeviceChallenge', description: 'A single-use challenge for the attestation of one enrollment.' }),
);
export type DeviceChallenge = z.infer<typeof DeviceChallenge>;

/** The simulator's stub attestation: what a real platform attestation proves, in plain fields. */
const StubAttestation = z.lazy(() =>
  z
    .strictObject({
      format: z.literal('stub'),
      challenge: z.string().min(1).max(200),
      bundle_id: z.string().min(1).max(255),
      team_id: z.string().min(1).max(40),
    })
    .meta({ id: 'StubAttestation' }),
);

export const EnrollmentRequest = z.lazy(() =>
  z
    .strictObject({ installation_id: DeviceId, app_version: AppVersion.optional(), attestation: StubAttestation })
    .meta({ id: 'EnrollmentRequest' }),
);
export type EnrollmentRequest = z.infer<typeof EnrollmentRequest>;

const InstallationStatus = z.enum(['enrolled', 'blocked']);

export const Enrollment = z.lazy(() =>
  z
    .object({
      object: z.literal('enrollment'),
      installation_id: z.string(),
      status: InstallationStatus,
      enrolled_at: DateTime,
      /** True when this installation had enrolled before (enrollment repeated after a reinstall). */
      reenrolled: z.boolean(),
      enrollments: z.number().int(),
    })
    .meta({ id: 'Enrollment' }),
);
export type Enrollment = z.infer<typeof Enrollment>;

export const Model = z.lazy(() =>
  z
    .object({
      object: z.literal('model'),
      model_version: z.string(),
      size: z.number().int(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      url: z.string(),
      current: z.boolean(),
    })
    .meta({ id: 'Model' }),
);
export type Model = z.infer<typeof Model>;

export const ModelManifest = z.lazy(() => listOf(Model, 'ModelManifest'));
export type ModelManifest = z.infer<typeof ModelManifest>;

export const ModelKeyRequest = z.lazy(() =>
  z
    .strictObject({ installation_id: DeviceId, model_version: ModelVersion, app_version: AppVersion.optional() })
    .meta({ id: 'ModelKeyRequest' }),
);
export type ModelKeyRequest = z.infer<typeof ModelKeyRequest>;

export const ModelKey = z.lazy(() =>
  z
    .object({ object: z.literal('model_key'), model_version: z.string(), key: z.string(), expires_at: DateTime })
    .meta({ id: 'ModelKey', description: 'The key that unlocks the downloaded model; valid as long as the session token.' }),
);
export type ModelKey = z.infer<typeof ModelKey>;

/** Mesh fitting sends no member data: the device asks for the fitting template of its model (rule 5). */
export const MeshFitRequest = z.lazy(() =>
  z.strictObject({ installation_id: DeviceId, model_version: ModelVersion }).meta({ id: 'MeshFitRequest' }),
);
export type MeshFitRequest = z.infer<typeof MeshFitRequest>;

export const MeshFit = z.lazy(() =>
  z
    .object({
      object: z.literal('mesh_fit'),
      fit_id: z.string(),
      model_version: z.string(),
      template: z.object({ vertices: z.number().int(), faces: z.number().int(), sha256: z.string() }),
      created_at: DateTime,
    })
    .meta({ id: 'MeshFit' }),
);
export type MeshFit = z.infer<typeof MeshFit>;

const SCAN_STATUSES = ['started', 'completed', 'failed', 'abandoned'] as const;
export const ScanStatus = z.enum(SCAN_STATUSES);
export type ScanStatus = z.infer<typeof ScanStatus>;
export const SCAN_OUTCOMES = ['completed', 'failed', 'abandoned'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

/** DEV-5: the Idempotency-Key of POST /v1/scan-events: 1 to 255 printable ASCII characters, no spaces. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(IDEMPOTENCY_KEY_PATTERN, 'must be 1 to 255 printable ASCII characters without spaces');

export const ScanEventRequest = z.lazy(() =>
  z
    .strictObject({
      installation_id: DeviceId,
      scan_id: DeviceId,
      status: ScanStatus,
      /** When it happened on the device; an offline scan keeps its own time when it syncs later. */
      occurred_at: DateTimeInput.describe(
        `When it happened on the device (an offline scan keeps its own time when it syncs later). At most ${CHOICES.occurredAtSkewMs / 60_000} minutes ahead of the service's clock: later is 400 parameter_invalid.`,
      ),
      model_version: ModelVersion.describe(
        `A model GET /v1/models lists (the emulator's: ${MODEL_VERSIONS.join(', ')}); any other is 400 parameter_invalid.`,
      ),
    })
    .meta({ id: 'ScanEventRequest' }),
);
export type ScanEventRequest = z.infer<typeof ScanEventRequest>;

export const Scan = z.lazy(() =>
  z
    .object({
      object: z.literal('scan'),
      id: z.string(),
      app_id: z.string(),
      installation_id: z.string(),
      host_user_ref: z.string(),
      /** The key environment of the session that ran it (BILL-1, BILL-2). */
      env: Env,
      status: ScanStatus,
      model_version: z.string(),
      started_at: DateTime.nullable(),
      occurred_at: DateTime.nullable(),
      recorded_at: DateTime,
      billable: z.boolean(),
      reports: z.number().int(),
      result_stored: z.boolean(),
    })
    .meta({ id: 'Scan' }),
);
export type Scan = z.infer<typeof Scan>;

export const ScanEventResponse = z.lazy(() =>
  z
    .object({
      object: z.literal('scan_event'),
      /** True when this event repeated what was already recorded (BILL-5): nothing changed, nothing charged, nothing sent. */
      duplicate: z.boolean(),
      scan: Scan,
    })
    .meta({ id: 'ScanEventResponse' }),
);
export type ScanEventResponse = z.infer<typeof ScanEventResponse>;

/** CHOICE-40: a result is kept and compared exactly as sent, so its nesting is bounded. */
export const ScanResult = z.record(z.string(), z.unknown()).refine((result) => !nestedDeeperThan(result, CHOICES.resultMaxDepth), {
  error: `nested more than ${CHOICES.resultMaxDepth} levels deep (objects and arrays); a scan result is at most ${CHOICES.resultMaxDepth}`,
});

export const ResultUploadRequest = z.lazy(() =>
  z
    .strictObject({ installation_id: DeviceId, result: ScanResult })
    .meta({ id: 'ResultUploadRequest', description: "result: the scan result exactly as the member's app received it." }),
);
export type ResultUploadRequest = z.infer<typeof ResultUploadRequest>;

export const ScanResultUpload = z.lazy(() =>
  z
    .object({
      object: z.literal('scan_result'),
      scan_id: z.string(),
      stored: z.literal(true),
      /** True for a re-upload: the same result, one stored row, one delivery (DEV-8). */
      duplicate: z.boolean(),
      stored_at: DateTime,
    })
    .meta({ id: 'ScanResultUpload' }),
);
export type ScanResultUpload = z.infer<typeof ScanResultUpload>;

// ---- The emulator's control plane for devices, scans and usage (under /_scanctl).

export const Installation = z.lazy(() =>
  z
    .object({
      object: z.literal('installation'),
      id: z.string(),
      app_id: z.string(),
      status: InstallationStatus,
      app_version: z.string().nullable(),
      enrolled_at: DateTime,
      enrollments: z.number().int(),
      blocked_at: DateTime.nullable(),
      last_seen_at: DateTime,
    })
    .meta({ id: 'Installation' }),
);
export type Installation = z.infer<typeof Installation>;

export const InstallationList = z.lazy(() => listOf(Installation, 'InstallationList'));
export type InstallationList = z.infer<typeof InstallationList>;

export const ScanListQuery = z
  .strictObject({
    host_user_ref: HostUserRef.optional(),
    limit: queryInteger(1, 1000).optional(),
  })
  .meta({ id: 'ScanListQuery' });

export const ScanList = z.lazy(() => listOf(Scan, 'ScanList'));
export type ScanList = z.infer<typeof ScanList>;

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM');

export const UsageQuery = z.strictObject({ app_id: z.string().min(1).optional(), month: Month.optional() }).meta({ id: 'UsageQuery' });

/** An app's counters of one month, as reported and as kept (store/tables/usage.ts). */
export const usageCounters = () => ({
  /** The billed quantity: distinct host_user_ref with a live completed scan (BILL-1, BILL-4). */
  monthly_active_users: z.number().int(),
  billable_scans: z.number().int(),
  /** Scans of test-key sessions, any outcome: recorded, never billed (BILL-2). */
  test_scans: z.number().int(),
  /** What the test scans would have counted as active users with live keys. */
  test_active_users: z.number().int(),
  completed_scans: z.number().int(),
  failed_scans: z.number().int(),
  abandoned_scans: z.number().int(),
});

/** One app's month, counted by the UTC month of occurred_at (BILL-4). */
export const Usage = z.lazy(() =>
  z.object({ object: z.literal('usage'), app_id: z.string(), month: z.string(), ...usageCounters() }).meta({ id: 'Usage' }),
);
export type Usage = z.infer<typeof Usage>;

export const UsageList = z.lazy(() => listOf(Usage, 'UsageList'));
export type UsageList = z.infer<typeof UsageList>;
