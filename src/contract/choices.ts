/**
 * The emulator's numeric choices where the spec is silent or gives only a rule of thumb.
 * Every CHOICE-* number lives here; the README's "Emulator choices" section mirrors this file.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const CHOICES = {
  /** Spec: 15 minutes (SES-2, SES-5). */
  sessionTokenLifetimeMs: 15 * MINUTE,
  /** Spec: 24 hours (AUTH-5, AUTH-8). */
  rotationGraceMs: 24 * HOUR,
  /** Spec: at most 255 characters (SES-1). */
  hostUserRefMaxLength: 255,
  /** Spec: 10 characters (APP-5). */
  teamIdLength: 10,
  /** CHOICE-5: default daily session quota of an app; the quota's day is the UTC day on the emulator clock. */
  defaultDailySessionQuota: 10_000,
  /** CHOICE-2: requests per second per secret key on the backend routes (`serve`); 0 turns the limit off. */
  defaultRateLimitPerSecond: 100,
  /** CHOICE-2: the same for test runs (`exec`, `startEmulator`): off, so a suite never meets a 429 it did not ask for. */
  testRunRateLimitPerSecond: 0,
  /** CHOICE-3: request bodies larger than this get 413 body_too_large. */
  maxBodyBytes: 1024 * 1024,
  /** CHOICE-40: a scan result nested deeper than this (objects and arrays) is 400 parameter_invalid. */
  resultMaxDepth: 64,
  /** A portal login lasts this long. */
  portalSessionLifetimeMs: 12 * HOUR,
  /** Device challenges are single-use and short-lived. */
  challengeLifetimeMs: 5 * MINUTE,
  /** How long a POST /v1/scan-events Idempotency-Key is remembered. */
  idempotencyKeyLifetimeMs: 24 * HOUR,
  /** CHOICE-7: a scan event's occurred_at may be at most this far ahead of the emulator clock (device clock skew). */
  occurredAtSkewMs: 5 * MINUTE,
  /** CHOICE-7: the size of each generated model file served by GET /v1/models/{model_version}. */
  modelSizeBytes: 64 * 1024,
  /** CHOICE-9 and the per-attempt limit of a webhook delivery (real time, not virtual). */
  webhookAttemptTimeoutMs: 10_000,
  webhookMaxAttempts: 17,
  /** CHOICE-9: an idle keep-alive connection to a receiver is closed after this (real ms), or a second before its Keep-Alive hint. */
  webhookIdleConnectionMs: 4_000,
  /** CHOICE-24: an answer's status line and headers may be this large; of its body this much is read, then the connection is closed. */
  webhookMaxAnswerHeadBytes: 64 * 1024,
  webhookMaxAnswerBodyReadBytes: 64 * 1024,
  /** CHOICE-22: webhook sends in flight at once in all, and at most to one receiver origin (a hung receiver holds only its share). */
  webhookConcurrency: 32,
  webhookConcurrencyPerOrigin: 16,
  /** Delivery chaos: a delayed attempt without a fixed delay waits a seeded 1 s to this long (virtual). */
  chaosMaxRandomDelayMs: 5 * MINUTE,
  /** Delivery chaos --reorder: each delivery's first attempt waits a seeded 0 to this long (virtual), so arrivals shuffle. */
  chaosReorderWindowMs: 10_000,
  /** CHOICE-54: the longest duration taken anywhere (a clock advance, --since, a CLI option): 100 years of 365.25 days. */
  maxDurationMs: 100 * 365.25 * 24 * HOUR,
  /** The furthest the virtual clock may be from real time, either way (a state import's clock_offset_ms): 200 years. */
  maxClockOffsetMs: 200 * 365 * 24 * HOUR,
  /** CHOICE-13: the database folder (.scanctl) and files holding secrets are the owner's only. */
  privateDirMode: 0o700,
  privateFileMode: 0o600,
  /** `scanctl logs tail`: the emulator keeps this many recent request log lines for --since and -n. */
  requestLogBufferSize: 1000,
  /** CHOICE-37: a stream subscriber whose unsent events pass this many bytes is dropped (about 250 delivery events). */
  streamBufferBytes: 256 * 1024,
  /** CHOICE-65: `conform` sends at most this many requests a second to a target's public routes (a tenth of CHOICE-2's limit). */
  conformMaxRatePerSecond: 10,
  /** CHOICE-67: how long (real ms) a probe waits for a delivery, and then for a copy that should not come. */
  conformDeliveryArrivalMs: 5_000,
  conformSettleMs: 1_000,
  /** CHOICE-67: an expires_at this close to 15 minutes after the answer is 15 minutes (a Date header has whole seconds). */
  conformLifetimeToleranceMs: 5_000,
  /** CHOICE-35: on SIGTERM/SIGINT, requests in flight get this long (real ms) to be answered before they are refused. */
  stopGraceMs: 5_000,
  /** CHOICE-45: checkpoints kept at once (each a full copy of the state); one more is 409 checkpoint_limit_reached. */
  maxCheckpoints: 64,
  /**
   * CHOICE-57: an answer given before its request's body arrived (413 body_too_large) is sent at once, and the
   * connection closed only after the rest of the body is read and dropped, for at most this long and this much.
   */
  lingerOnUnreadBodyMs: 5_000,
  lingerOnUnreadBodyBytes: 64 * 1024 * 1024,
} as const;

/** CHOICE-11: the host names the emulator answers without --allowed-host (with its own port). */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * CHOICE-9: the gap before retry k (k = 1..16): 30 s doubling, capped at 6 h.
 * 30s 1m 2m 4m 8m 16m 32m 1h04m 2h08m 4h16m, then 6h six times: 44h31m30s from first to last attempt.
 */
export const WEBHOOK_RETRY_GAPS_MS: readonly number[] = Array.from({ length: CHOICES.webhookMaxAttempts - 1 }, (_, i) =>
  Math.min(30_000 * 2 ** i, 6 * HOUR),
);
