import { z } from 'zod';
import { DateTime } from './time.js';
import { WebhookAttempt, DeliveryStatus, WebhookDelivery, WebhookEventType } from './webhooks.js';

/**
 * What a wait for webhook deliveries waits for (CHOICE-42), per event: `attempted` (attempts were
 * made), `acknowledged` (a 2xx), `exhausted` (every attempt failed), `settled` (it ended, either way).
 */
export const WAIT_UNTIL = ['attempted', 'acknowledged', 'exhausted', 'settled'] as const;
export const WaitUntil = z.enum(WAIT_UNTIL);
export type WaitUntil = z.infer<typeof WaitUntil>;

/** Why a wait did not succeed. */
export const WaitFailure = z.enum(['failed', 'unmet', 'timeout', 'none']);
export type WaitFailure = z.infer<typeof WaitFailure>;

/** One delivery's attempts, as a wait reports them. */
export const WebhookDeliveryAttemptLog = z.lazy(() =>
  z
    .object({
      delivery_id: z.string().describe('The delivery.'),
      event_id: z.string().describe('Its event; equals the Service-Event-Id header.'),
      event_type: WebhookEventType.describe('scan.completed, scan.failed or scan.results_available.'),
      scan_id: z.string().describe('The scan that caused the event.'),
      status: DeliveryStatus.describe('Its status when the wait ended (see `webhook deliveries`).'),
      attempts: z.array(WebhookAttempt).describe('Each attempt, first to last, with its status and its time on the emulator clock.'),
    })
    .meta({ id: 'WebhookDeliveryAttemptLog' }),
);
export type WebhookDeliveryAttemptLog = z.infer<typeof WebhookDeliveryAttemptLog>;

/** One move of the emulator's clock that `--play-retries` made. */
export const WaitClockMove = z.lazy(() =>
  z
    .object({
      from: DateTime.describe("The emulator's clock before the move."),
      to: DateTime.describe('Where it moved: the next attempt due of a delivery waited for, no further.'),
      played: z.number().int().describe('Due moments the move played (each with the attempts due then).'),
    })
    .meta({ id: 'WaitClockMove' }),
);
export type WaitClockMove = z.infer<typeof WaitClockMove>;

/**
 * The last line of `scan simulate --wait --json` and the output of `webhook wait --json`.
 * Counted per event: an event counts once a delivery of it (a resend included) reached the goal.
 */
export const WaitResult = z.lazy(() =>
  z
    .object({
      object: z.literal('wait'),
      ok: z.boolean().describe('True when every event waited for reached `until` (exit 0); false otherwise (exit 5).'),
      until: WaitUntil.describe('What it waited for: attempted, acknowledged, exhausted or settled.'),
      reason: WaitFailure.nullable().describe(
        'null when ok. failed: a delivery exhausted its attempts (waiting for attempted or acknowledged); unmet: a delivery ended where the wait cannot be met (acknowledged while waiting for exhausted, or with fewer attempts than --attempts); timeout: the real-time timeout passed; none: no delivery matched (webhook wait).',
      ),
      acknowledged: z.number().int().describe('Deliveries a 2xx acknowledged.'),
      deliveries: z.number().int().describe('Deliveries waited for.'),
      delivery: WebhookDelivery.nullable().describe(
        'When not ok: the delivery that decided it (as `webhook deliveries` shows it), else null.',
      ),
      clock_moves: z.array(WaitClockMove).describe('The clock moves that --play-retries made, in order; empty without it.'),
      log: z
        .array(WebhookDeliveryAttemptLog)
        .nullable()
        .describe('Each delivery waited for, with its attempts (webhook wait, and scan simulate --wait --play-retries); null otherwise.'),
    })
    .meta({ id: 'WaitResult' }),
);
export type WaitResult = z.infer<typeof WaitResult>;
