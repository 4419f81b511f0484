import type { ClockState } from '../../contract/control.js';
import { INTERFACE_VERSION } from '../../contract/version.js';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import type { EmulatorContext } from '../context.js';
import { advanceClockBy, setClockTo } from '../domain/clock.js';
import { implement } from '../http/implement.js';
import type { ClockMove } from '../scheduler.js';

function clockView(ctx: EmulatorContext): ClockState {
  return { object: 'clock', now: toIso(ctx.clock.now()), offset_ms: ctx.clock.offsetMs };
}

/** A move's answer: where that move left the clock, even if a restore queued behind it has moved it since. */
const movedView = (move: ClockMove): ClockState => ({
  object: 'clock',
  now: toIso(move.now),
  offset_ms: move.offsetMs,
  played: move.played,
});

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
    return { status: 200, body: movedView(await advanceClockBy(ctx, duration)) };
  }),
  implement(OPS.setClock)(async ({ ctx, body: { time } }) => {
    return { status: 200, body: movedView(await setClockTo(ctx, time)) };
  }),
] as const;
