import { parseDuration } from '../../clock/duration.js';
import type { ClockResponse } from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import { INTERFACE_VERSION } from '../../contract/version.js';
import { OPS } from '../../contract/operations/index.js';
import { parseRfc3339, toIso } from '../../contract/time.js';
import type { EmulatorContext } from '../context.js';
import { implement } from '../http/implement.js';

/** The latest time the clock may show: every wire timestamp stays a four-digit-year ISO date. */
const LATEST_CLOCK_MS = Date.parse('9999-12-31T23:59:59.999Z');

function clockView(ctx: EmulatorContext, played?: number): ClockResponse {
  return { object: 'clock', now: toIso(ctx.clock.now()), offset_ms: ctx.clock.offsetMs, ...(played === undefined ? {} : { played }) };
}

/** What this emulator is, and its virtual clock: advancing plays every due timer at its own time. */
export const clockRoutes = [
  implement(OPS.emulatorInfo)(({ ctx }) => ({
    status: 200,
    body: {
      object: 'emulator',
      version: ctx.config.version,
      interface_version: INTERFACE_VERSION,
      now: toIso(ctx.clock.now()),
      default_app_id: ctx.config.defaultAppId,
      fixtures_path: ctx.config.fixturesPath,
      rate_limit_per_second: ctx.rateLimiter.limitPerSecond,
      apps: ctx.store.apps.all().map((a) => a.id),
    },
  })),
  implement(OPS.getClock)(({ ctx }) => ({ status: 200, body: clockView(ctx) })),
  implement(OPS.advanceClock)(async ({ ctx, body: { duration } }) => {
    const ms = parseDuration(duration);
    if (ms === null) throw new ApiError('parameter_invalid', `Invalid duration "${duration}": use forms like 90s, 15m, 24h, 3d (at most 100 years).`, 'duration');
    if (ctx.clock.now() + ms > LATEST_CLOCK_MS) throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'duration');
    const { played } = await ctx.scheduler.advanceBy(ms);
    return { status: 200, body: clockView(ctx, played) };
  }),
  implement(OPS.setClock)(async ({ ctx, body: { time } }) => {
    const target = parseRfc3339(time);
    if (!(target <= LATEST_CLOCK_MS)) throw new ApiError('parameter_invalid', 'The clock cannot move past the year 9999.', 'time');
    if (target < ctx.clock.now()) {
      throw new ApiError('clock_backwards', `The clock only moves forward: it is already ${toIso(ctx.clock.now())}.`, 'time');
    }
    const { played } = await ctx.scheduler.advanceTo(target);
    return { status: 200, body: clockView(ctx, played) };
  }),
];
