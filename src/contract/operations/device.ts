import {
  IdempotencyKey,
  DeviceChallenge,
  EnrollmentRequest,
  Enrollment,
  MeshFitRequest,
  MeshFit,
  ModelKeyRequest,
  ModelKey,
  ModelManifest,
  ResultUploadRequest,
  ScanResultUpload,
  ScanEventRequest,
  ScanEventResponse,
} from '../device.js';
import type { ErrorCode } from '../errors.js';
import { byOperationId, defineOperation, type Operation } from '../operation.js';
import { SCAN_EXAMPLE } from './define.js';

/**
 * The SDK's routes (CHOICE-7 shapes): challenge, enrollment, models, model key, mesh fitting,
 * scan events, result upload. Tag "device", security "sessionToken". Their control plane
 * (installations, scans, usage) is in ./scans.ts.
 */

/** Every device route: a session token only (AUTH-13), valid on the emulator's clock (SES-5). */
const TOKEN_ERRORS: readonly ErrorCode[] = ['session_token_invalid', 'session_token_expired', 'secret_key_not_accepted'];
const device = <const O extends Omit<Operation, 'tag' | 'security'>>(op: O) =>
  defineOperation({ ...op, tag: 'device', security: 'sessionToken' as const, errors: [...TOKEN_ERRORS, ...(op.errors ?? [])] });

const MODEL = '2026.10.1';

export const deviceOperations = byOperationId(
  device({
    method: 'post',
    path: '/v1/device/challenge',
    operationId: 'createDeviceChallenge',
    summary: 'A single-use attestation challenge for one enrollment',
    description:
      'Step one of enrollment (DEV-1): the challenge is single-use and short-lived, and goes into the attestation of POST /v1/device/enrollments. Takes no body (CHOICE-53).',
    rules: ['AUTH-13', 'DEV-1'],
    responses: {
      201: {
        description: 'The challenge; it expires after 5 minutes.',
        schema: DeviceChallenge,
        example: { object: 'challenge', challenge: 'chl_Xq8bT2nM5kP0wR7yZc3vL9sD1fG4hJ6a', expires_at: '2026-11-22T10:05:00.000Z' },
      },
    },
  }),
  device({
    method: 'post',
    path: '/v1/device/enrollments',
    operationId: 'enrollInstallation',
    summary: 'Enroll an installation with device attestation (the simulator sends a stub attestation)',
    description:
      'Once per installation, before its first scan; it survives app updates. Enrolling a known installation again (after a reinstall) answers 200 with reenrolled true and keeps its state: a blocked installation stays blocked. ' +
      "The bundle and team identifiers must equal the app's exactly, otherwise 403 attestation_invalid, whose message names the attestation only.",
    rules: ['DEV-1', 'DEV-2', 'APP-5'],
    request: {
      schema: EnrollmentRequest,
      example: {
        installation_id: 'ins_Hk3nV9qW2sB6dJ0e',
        app_version: '1.4.0',
        attestation: {
          format: 'stub',
          challenge: 'chl_Xq8bT2nM5kP0wR7yZc3vL9sD1fG4hJ6a',
          bundle_id: 'com.example.scanner',
          team_id: 'A1B2C3D4E5',
        },
      },
    },
    responses: {
      201: {
        description: 'Enrolled for the first time.',
        schema: Enrollment,
        example: {
          object: 'enrollment',
          installation_id: 'ins_Hk3nV9qW2sB6dJ0e',
          status: 'enrolled',
          enrolled_at: '2026-11-22T10:00:00.000Z',
          reenrolled: false,
          enrollments: 1,
        },
      },
      200: { description: 'Enrolled again after a reinstall (reenrolled true).', schema: Enrollment },
    },
    errors: ['attestation_invalid', 'challenge_invalid'],
  }),
  device({
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    summary: 'The model manifest: each version with its size and sha256',
    description:
      "The scan models the device may download, newest first; a scan event's model_version must name one of them (else 400 parameter_invalid).",
    rules: ['SES-8'],
    responses: {
      200: {
        description: 'The models, newest (current) first.',
        schema: ModelManifest,
        example: {
          object: 'list',
          data: [
            {
              object: 'model',
              model_version: MODEL,
              size: 65536,
              sha256: '9f0d76e5c1aab616b32bff089e1deb3348a15a30fc9bcd5f555e48700a3e736f',
              url: `/v1/models/${MODEL}`,
              current: true,
            },
          ],
        },
      },
    },
  }),
  device({
    method: 'get',
    path: '/v1/models/{model_version}',
    operationId: 'downloadModel',
    summary: 'Download a model file (bytes whose size and sha256 match the manifest)',
    description:
      'The model file as bytes (application/octet-stream). The device checks them against the size and sha256 of GET /v1/models before use; an unknown version is 404 resource_missing.',
    rules: ['SES-8'],
    pathParams: { model_version: 'A model version from the manifest, e.g. 2026.10.1.' },
    responses: { 200: { description: 'The model bytes.', contentType: 'application/octet-stream' } },
    errors: ['resource_missing'],
  }),
  device({
    method: 'post',
    path: '/v1/model-key',
    operationId: 'getModelKey',
    summary: 'The key of the model, for an enrolled installation',
    description: "Session token plus an enrolled, unblocked installation of the token's app. Not scope-gated (SES-8).",
    rules: ['DEV-4', 'DEV-3', 'SES-8', 'AUTH-14'],
    request: { schema: ModelKeyRequest, example: { installation_id: 'ins_Hk3nV9qW2sB6dJ0e', model_version: MODEL, app_version: '1.4.0' } },
    responses: {
      200: {
        description: 'The model key; valid as long as the session token.',
        schema: ModelKey,
        example: {
          object: 'model_key',
          model_version: MODEL,
          key: 'Zx1dQ2f3G4h5J6k7L8m9N0p1Q2r3S4t5U6v7W8x9Y0a',
          expires_at: '2026-11-22T10:15:00.000Z',
        },
      },
    },
    errors: ['installation_not_enrolled', 'installation_blocked', 'resource_missing'],
  }),
  device({
    method: 'post',
    path: '/v1/mesh-fits',
    operationId: 'createMeshFit',
    summary: 'The mesh-fitting template of a model (no member data is sent)',
    description:
      'Returns the template the device fits a mesh to, for one model version. The request carries no member data: measurements never leave the device this way.',
    rules: ['SES-8'],
    request: { schema: MeshFitRequest, example: { installation_id: 'ins_Hk3nV9qW2sB6dJ0e', model_version: MODEL } },
    responses: { 201: { description: 'The fitting template.', schema: MeshFit } },
    errors: ['installation_not_enrolled', 'installation_blocked', 'resource_missing'],
  }),
  device({
    method: 'post',
    path: '/v1/scan-events',
    operationId: 'reportScanEvent',
    summary: 'Report a scan: started, then completed, failed or abandoned (the call that bills)',
    description:
      'Needs scope scan.create (else 403 insufficient_scope and nothing is recorded) and an Idempotency-Key. One token runs one scan session: it binds to the first scan_id it reports. ' +
      "occurred_at is the device's time; an offline scan syncs later with a fresh token and keeps it, and is billed in its month. A repeated outcome is a duplicate report: counted, never charged or sent again. " +
      'Idempotency (CHOICE-7, CHOICE-21): keys are per app and remembered 24 hours; the same key and body from the same member and key environment replays the first answer with Idempotent-Replayed: true; the same key with another body, member or environment is 409 idempotency_key_reused.',
    rules: ['DEV-5', 'DEV-6', 'DEV-3', 'SES-6', 'SES-7', 'BILL-1', 'BILL-2', 'BILL-3', 'BILL-4', 'BILL-5'],
    headers: [
      {
        name: 'Idempotency-Key',
        required: true,
        description: 'One fresh key per event, reused on its retries (1 to 255 printable ASCII characters, no spaces).',
        schema: IdempotencyKey,
      },
    ],
    request: {
      schema: ScanEventRequest,
      example: {
        installation_id: 'ins_Hk3nV9qW2sB6dJ0e',
        scan_id: 'scn_4fQ2mZ8pL1xR7tYc',
        status: 'completed',
        occurred_at: '2026-11-22T10:01:30.000Z',
        model_version: MODEL,
      },
    },
    responses: {
      201: {
        description: 'The scan was recorded for the first time.',
        schema: ScanEventResponse,
        headers: { 'Idempotent-Replayed': 'true when this is the stored answer to an earlier request with the same Idempotency-Key.' },
        example: { object: 'scan_event', duplicate: false, scan: { ...SCAN_EXAMPLE, started_at: null, reports: 1 } },
      },
      200: {
        description: 'An event of a scan already recorded (its outcome, or a duplicate report with duplicate true).',
        schema: ScanEventResponse,
        headers: { 'Idempotent-Replayed': 'true when this is the stored answer to an earlier request with the same Idempotency-Key.' },
        example: { object: 'scan_event', duplicate: false, scan: SCAN_EXAMPLE },
      },
    },
    errors: [
      'insufficient_scope',
      'idempotency_key_missing',
      'idempotency_key_reused',
      'session_token_used',
      'installation_not_enrolled',
      'installation_blocked',
      'scan_conflict',
    ],
  }),
  device({
    method: 'put',
    path: '/v1/scans/{scan_id}/result',
    operationId: 'uploadScanResult',
    summary: "Upload a completed scan's result (only with results delivery on)",
    description:
      'With results delivery off: 403 results_delivery_disabled before the body is read; nothing is stored, and the SDK stops for good. A re-upload is the same result: one stored row, one scan.results_available.',
    rules: ['DEV-7', 'DEV-8', 'DEV-9', 'SES-6'],
    pathParams: { scan_id: 'The scan, as reported to POST /v1/scan-events.' },
    request: {
      schema: ResultUploadRequest,
      example: {
        installation_id: 'ins_Hk3nV9qW2sB6dJ0e',
        result: { modelVersion: MODEL, measurements: { bodyFatPercent: 21.4, bmi: 23.8, girths: { waistCm: 84.2, hipCm: 98.7 } } },
      },
    },
    responses: {
      201: {
        description: 'Stored; scan.results_available is queued.',
        schema: ScanResultUpload,
        example: {
          object: 'scan_result',
          scan_id: 'scn_4fQ2mZ8pL1xR7tYc',
          stored: true,
          duplicate: false,
          stored_at: '2026-11-22T10:01:31.000Z',
        },
      },
      200: { description: 'A re-upload of the stored result (duplicate true).', schema: ScanResultUpload },
    },
    errors: [
      'results_delivery_disabled',
      'session_token_used',
      'installation_not_enrolled',
      'resource_missing',
      'scan_not_completed',
      'scan_conflict',
    ],
  }),
);
