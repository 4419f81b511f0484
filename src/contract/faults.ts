import { z } from 'zod';
import { listOf } from './list.js';
import { Probability, Seed } from './seeded.js';
import { DateTime } from './time.js';

/** API faults (`scanctl faults`): chosen routes answer a chosen error on purpose. The emulator's own (CHOICE-8). */

export const FAULT_METHODS = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** A code the developer picks: lowercase snake case, like every code of the spec. */
const FAULT_CODE_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** /v1/sessions, /v1/apps/:app_id, /v1/* ; never the control plane. */
export const FAULT_PATH_PATTERN = /^\/[A-Za-z0-9._~:@!$&'()+,;=%/-]*\*?$/;

export const FaultCreateRequest = z.lazy(() =>
  z
    .strictObject({
      method: z.enum(FAULT_METHODS),
      path: z
        .string()
        .max(300)
        .regex(FAULT_PATH_PATTERN, 'must be a path such as /v1/sessions (":name" matches a segment, a trailing "*" the rest)'),
      status: z.number().int().min(400).max(599),
      code: z.string().max(64).regex(FAULT_CODE_PATTERN, 'must be lowercase snake case, like rate_limited'),
      message: z.string().min(1).max(500).optional(),
      count: z.number().int().min(1).max(1_000_000).optional(),
      probability: Probability.optional(),
      seed: Seed.optional(),
    })
    .refine((f) => f.count === undefined || f.probability === undefined, {
      error: 'give count or probability, not both',
      path: ['probability'],
    })
    // The refinement above, for JSON Schema readers: count and probability are exclusive.
    .meta({
      id: 'FaultCreateRequest',
      description: 'Answer METHOD PATH with status and code, for the next count calls or with a probability (not both).',
      not: { required: ['count', 'probability'] },
    }),
);
export type FaultCreateRequest = z.infer<typeof FaultCreateRequest>;

/** What a fault is, as listed and as its row stores it (store/tables/faults.ts). */
export const faultFields = () => ({
  /** An HTTP method, or * for any. */
  method: z.enum(FAULT_METHODS),
  /** A path such as /v1/sessions; `:name` matches one segment, a trailing `*` any rest. */
  path: z.string(),
  status: z.number().int(),
  code: z.string(),
  message: z.string().nullable(),
  /** For the next N calls: the N asked for, and how many are left (null: no count). */
  count: z.number().int().nullable(),
  remaining: z.number().int().nullable(),
  /** With a probability instead (null: every matching call until the count runs out or it is cleared). */
  probability: z.number().nullable(),
  seed: z.number().int(),
  /** Matching calls seen so far: the index of the next probability draw. */
  matched: z.number().int(),
  injected: z.number().int(),
});

export const Fault = z.lazy(() =>
  z
    .object({ id: z.string(), object: z.literal('fault'), ...faultFields(), active: z.boolean(), created_at: DateTime })
    .meta({ id: 'Fault' }),
);
export type Fault = z.infer<typeof Fault>;

export const FaultList = z.lazy(() => listOf(Fault, 'FaultList'));
export type FaultList = z.infer<typeof FaultList>;

export const FaultClear = z.lazy(() =>
  z.object({ object: z.literal('fault_clear'), cleared: z.number().int() }).meta({ id: 'FaultClear' }),
);
export type FaultClear = z.infer<typeof FaultClear>;
