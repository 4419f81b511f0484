import { z } from 'zod';
import { MAX_SEED } from '../util/seeded-random.js';

/**
 * Control plane of issue 6 ("beyond the anchors"): API faults, delivery chaos, state
 * export/import/reset, and the request log. Everything here is the emulator's own (CHOICE-8).
 */

const Probability = z.number().min(0).max(1);
const Seed = z.number().int().min(0).max(MAX_SEED);
const DateTime = z.iso.datetime({ offset: true });

// ---- API faults ----

export const FAULT_METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** A code the developer picks: lowercase snake case, like every code of the spec. */
export const FAULT_CODE_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** /v1/sessions, /v1/apps/:app_id, /v1/* ; never the control plane. */
export const FAULT_PATH_PATTERN = /^\/[A-Za-z0-9._~:@!$&'()+,;=%/-]*\*?$/;

export const FaultCreateRequest = z
  .strictObject({
    method: z.enum(FAULT_METHODS),
    path: z.string().max(300).regex(FAULT_PATH_PATTERN, 'must be a path such as /v1/sessions (":name" matches a segment, a trailing "*" the rest)'),
    status: z.number().int().min(400).max(599),
    code: z.string().max(64).regex(FAULT_CODE_PATTERN, 'must be lowercase snake case, like rate_limited'),
    message: z.string().min(1).max(500).optional(),
    count: z.number().int().min(1).max(1_000_000).optional(),
    probability: Probability.optional(),
    seed: Seed.optional(),
  })
  .refine((f) => f.count === undefined || f.probability === undefined, {
    message: 'give count or probability, not both',
    path: ['probability'],
  })
  .meta({ id: 'FaultCreateRequest', description: 'Answer METHOD PATH with status and code, for the next count calls or with a probability.' });
export type FaultCreateRequest = z.infer<typeof FaultCreateRequest>;

export const FaultView = z
  .object({
    id: z.string(),
    object: z.literal('fault'),
    method: z.enum(FAULT_METHODS),
    path: z.string(),
    status: z.number().int(),
    code: z.string(),
    message: z.string().nullable(),
    count: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
    probability: z.number().nullable(),
    seed: z.number().int(),
    matched: z.number().int(),
    injected: z.number().int(),
    active: z.boolean(),
    created_at: DateTime,
  })
  .meta({ id: 'Fault' });
export type FaultView = z.infer<typeof FaultView>;

export const FaultListResponse = z.object({ object: z.literal('list'), data: z.array(FaultView) }).meta({ id: 'FaultList' });
export type FaultListResponse = z.infer<typeof FaultListResponse>;

export const FaultClearResponse = z.object({ object: z.literal('fault_clear'), cleared: z.number().int() }).meta({ id: 'FaultClear' });
export type FaultClearResponse = z.infer<typeof FaultClearResponse>;

// ---- Delivery chaos ----

export const ChaosSetRequest = z
  .strictObject({
    seed: Seed.optional(),
    drop: Probability.default(0),
    duplicate: Probability.default(0),
    /** Delay of a delayed attempt in ms; null or absent: a seeded amount up to CHOICES.chaosMaxRandomDelayMs. */
    delay_ms: z.number().int().min(1).max(7 * 24 * 3_600_000).nullable().default(null),
    /** Share of attempts delayed; 1 with delay_ms delays every attempt. */
    delay_probability: Probability.default(0),
    reorder: z.boolean().default(false),
    fail_first: z.number().int().min(0).max(1_000).default(0),
    fail_status: z.number().int().min(100).max(599).default(500),
  })
  .meta({ id: 'ChaosSetRequest', description: 'Replaces the delivery chaos of one app.' });
export type ChaosSetRequest = z.input<typeof ChaosSetRequest>;

export const ChaosView = z
  .object({
    object: z.literal('chaos'),
    app_id: z.string(),
    enabled: z.boolean(),
    seed: z.number().int().nullable(),
    drop: z.number(),
    duplicate: z.number(),
    delay_ms: z.number().int().nullable(),
    delay_probability: z.number(),
    reorder: z.boolean(),
    fail_first: z.number().int(),
    fail_status: z.number().int(),
    updated_at: DateTime.nullable(),
  })
  .meta({ id: 'Chaos' });
export type ChaosView = z.infer<typeof ChaosView>;

// ---- State export / import ----

export const STATE_FORMAT = 'scanctl-state';
export const STATE_FORMAT_VERSION = 1;

const Cell = z.union([z.string(), z.number(), z.null(), z.strictObject({ base64: z.string() })]);
export type StateCell = z.infer<typeof Cell>;

export const StateFile = z
  .strictObject({
    format: z.literal(STATE_FORMAT),
    format_version: z.literal(STATE_FORMAT_VERSION),
    schema_version: z.number().int().min(1),
    clock_offset_ms: z.number().int(),
    includes_secrets: z.boolean(),
    tables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a table name'), z.array(z.record(z.string(), Cell))),
  })
  .meta({ id: 'StateFile', description: "The emulator's whole state: one table per key, rows sorted by primary key." });
export type StateFile = z.infer<typeof StateFile>;

export const StateExportQuery = z.strictObject({
  include_secrets: z.enum(['0', '1', 'true', 'false']).optional().describe('1: webhook signing secrets in plain text, for an import elsewhere.'),
});

export const StateImportResponse = z
  .object({
    object: z.literal('state_import'),
    schema_version: z.number().int(),
    clock_offset_ms: z.number().int(),
    tables: z.record(z.string(), z.number().int()),
    /** Apps whose signing secret was not in the file and could not be kept: their deliveries cannot be signed. */
    apps_without_signing_secret: z.array(z.string()),
  })
  .meta({ id: 'StateImport' });
export type StateImportResponse = z.infer<typeof StateImportResponse>;

export const StateResetResponse = z
  .object({ object: z.literal('state_reset'), fixtures: z.string().nullable(), apps: z.array(z.string()) })
  .meta({ id: 'StateReset' });
export type StateResetResponse = z.infer<typeof StateResetResponse>;

// ---- Request log ----

export const RequestLogLine = z
  .object({
    seq: z.number().int(),
    time: DateTime,
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    latency_ms: z.number(),
    key: z.string().optional().describe('The display form of the key (prefix and last four), never the key.'),
    env: z.enum(['test', 'live']).optional(),
    app_id: z.string().optional(),
    error_code: z.string().optional(),
  })
  .meta({ id: 'RequestLogLine' });
export type RequestLogLine = z.infer<typeof RequestLogLine>;

/** Filters of GET /_scanctl/logs and its live stream. */
export const LogQuery = z.strictObject({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5][0-9]{2})(,([1-5]xx|[1-5][0-9]{2}))*$/, 'must be a status or class such as 401, 4xx, 5xx (comma separated)')
    .optional(),
  path: z.string().max(300).optional(),
  method: z.string().max(10).optional(),
  app: z.string().max(100).optional(),
  /** A duration back from the emulator's now (5m, 1h) or an ISO time. */
  since: z.string().max(40).optional(),
  /** The last n matching lines of the buffer first. */
  n: z.coerce.number().int().min(0).max(1000).optional(),
  /** Include the control plane's own requests (/_scanctl). */
  all: z.enum(['0', '1', 'true', 'false']).optional(),
});
export type LogQuery = z.infer<typeof LogQuery>;

export const LogListResponse = z.object({ object: z.literal('list'), data: z.array(RequestLogLine) }).meta({ id: 'RequestLogList' });
export type LogListResponse = z.infer<typeof LogListResponse>;
