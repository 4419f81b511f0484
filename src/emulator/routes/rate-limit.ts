import { ApiError } from '../../contract/errors.js';
import type { EmulatorContext } from '../context.js';

/** SES-10, CHOICE-2: 429 rate_limited with Retry-After once a key passes the per-second limit. */
export function enforceRateLimit(ctx: EmulatorContext, keyId: string, now: number): void {
  const waitMs = ctx.rateLimiter.hit(keyId, now);
  if (waitMs > 0) {
    throw new ApiError(
      'rate_limited',
      `Too many requests: the limit is ${ctx.rateLimiter.limitPerSecond} per second per key. Retry after ${Math.ceil(waitMs / 1000)} s.`,
      undefined,
      { headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } },
    );
  }
}
