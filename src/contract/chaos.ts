import { z } from 'zod';
import { CHOICES } from './choices.js';
import { Probability, Seed } from './seeded.js';
import { DateTime } from './time.js';

/** Delivery chaos (`scanctl webhook chaos`): seeded drops, duplicates, delays, reordering, failures. */

const MAX_DELAY_MS = 7 * 24 * 3_600_000;

export const ChaosSetRequest = z.lazy(() =>
  z
    .strictObject({
      seed: Seed.optional(),
      drop: Probability.default(0),
      duplicate: Probability.default(0),
      /** Delay of a delayed attempt in ms; null or absent: a seeded amount up to CHOICES.chaosMaxRandomDelayMs. */
      delay_ms: z.number().int().min(1).max(MAX_DELAY_MS).nullable().default(null),
      /** Share of attempts delayed; 1 with delay_ms delays every attempt. */
      delay_probability: Probability.default(0),
      reorder: z.boolean().default(false),
      fail_first: z.number().int().min(0).max(1_000).default(0),
      fail_status: z.number().int().min(100).max(599).default(500),
    })
    .meta({ id: 'ChaosSetRequest', description: 'Replaces the delivery chaos of one app.' }),
);
export type ChaosSetRequest = z.input<typeof ChaosSetRequest>;

export const Chaos = z.lazy(() =>
  z
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
    .meta({ id: 'Chaos' }),
);
export type Chaos = z.infer<typeof Chaos>;

/**
 * What chaos decided for one attempt. deliver: send (after delayMs of virtual time; duplicate: the
 * same bytes twice); drop: not sent, recorded as failed; fail: not sent, recorded as if the
 * receiver answered failStatus.
 */
export const ChaosVerdict = z.lazy(() =>
  z.strictObject({
    action: z.enum(['deliver', 'drop', 'fail']),
    failStatus: z.number().int().min(100).max(599).optional(),
    /**
     * Extra virtual delay before this attempt; the dispatcher reschedules the attempt that far ahead.
     * At most the longest delay_ms plus reorder's jitter, which the verdict adds to it.
     */
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(MAX_DELAY_MS + CHOICES.chaosReorderWindowMs),
    duplicate: z.boolean(),
  }),
);
export type ChaosVerdict = z.infer<typeof ChaosVerdict>;

/** A delivery held by a chaos delay (deliveries.chaos_hold): the attempt and the verdict it keeps. */
export const ChaosHold = z.lazy(() => z.strictObject({ attempt: z.number().int().min(1), verdict: ChaosVerdict }));
export type ChaosHold = z.infer<typeof ChaosHold>;
