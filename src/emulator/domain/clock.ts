import { parseDuration } from '../../clock/duration.js';
import { ApiError } from '../../contract/errors.js';
import { parseRfc3339, toIso } from '../../contract/time.js';
import type { ClockMove, Scheduler } from '../scheduler.js';
import type { StateContext } from './state-context.js';

/** What a clock move needs: the clock it reads, and the scheduler that plays the timers on the way. */
export type ClockContext = Pick<StateContext, 'clock'> & { scheduler: Scheduler };

/** The latest time the clock may show: every wire timestamp stays a four-digit-year ISO date. */
const LATEST_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Moves the clock forward by a duration ("15m", "25h"), playing every due timer at its own virtual time. */
export async function advanceClockBy(ctx: ClockContext, duration: string): Promise<ClockMove> {
  const ms = parseDuration(duration);
  if (ms === null)
    throw new ApiError(
      'parameter_invalid',
      `Invalid duration "${duration}": use forms like 90s, 15m, 24h, 3d (at most 100 years).`,
      'duration',
    );
  if (ctx.clock.now() + ms > LATEST_CLOCK_MS)
    throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'duration');
  return ctx.scheduler.advanceBy(ms);
}

/** Moves the clock forward to a time; it never moves back (clock_backwards). */
export async function setClockTo(ctx: ClockContext, time: string): Promise<ClockMove> {
  const target = parseRfc3339(time);
  if (!(target <= LATEST_CLOCK_MS)) throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'time');
  if (target < ctx.clock.now()) {
    throw new ApiError('clock_backwards', `The clock only moves forward: it is already ${toIso(ctx.clock.now())}.`, 'time');
  }
  return ctx.scheduler.advanceTo(target);
}
