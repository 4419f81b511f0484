import { describe, expect, it } from 'vitest';
import { VirtualClock, frozenBase, systemClock } from '../../../src/clock/clock.js';
import { formatDuration, parseDuration } from '../../../src/clock/duration.js';
import type { TimerSource } from '../../../src/clock/timer-source.js';
import { Scheduler } from '../../../src/emulator/scheduler.js';

const START = Date.parse('2026-11-22T10:00:00.000Z');

describe('VirtualClock', () => {
  it('is real time plus an offset; a frozen base moves only when advanced', () => {
    const clock = new VirtualClock({ base: frozenBase() });
    expect(clock.now()).toBe(START);
    clock.advance(1500);
    expect(clock.now()).toBe(START + 1500);
    expect(clock.offsetMs).toBe(1500);
    const real = new VirtualClock({ offsetMs: 3_600_000 });
    const diff = real.now() - systemClock.now();
    expect(diff).toBeGreaterThanOrEqual(3_600_000 - 50);
    expect(diff).toBeLessThanOrEqual(3_600_000 + 50);
  });

  it('only moves forward: advance(-1) throws, moveTo(past) is a no-op returning false', () => {
    const clock = new VirtualClock({ base: frozenBase(), offsetMs: 10 });
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(clock.moveTo(START)).toBe(false);
    expect(clock.now()).toBe(START + 10);
    expect(clock.moveTo(START + 10)).toBe(true);
    expect(clock.moveTo(START + 5000)).toBe(true);
    expect(clock.now()).toBe(START + 5000);
    expect(clock.offsetMs).toBe(5000);
  });
});

describe('durations', () => {
  it('parses the documented forms', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('15m')).toBe(900_000);
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('25h')).toBe(90_000_000);
    expect(parseDuration('3d')).toBe(259_200_000);
    expect(parseDuration('1w')).toBe(604_800_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration(' 2m ')).toBe(120_000);
    expect(parseDuration('0s')).toBe(0);
  });

  it('refuses anything else with null', () => {
    for (const text of ['', '5', '-5m', '5 m', 'm', '1y', '1H', 'PT1H', '1h-30m', 'abc', '1e3s', '.5s', '5m!', 'NaN']) {
      expect(parseDuration(text), text).toBeNull();
    }
    expect(parseDuration(`${'9'.repeat(400)}d`)).toBeNull();
  });

  it('formats as the largest units that fit and round-trips', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(90_000_000)).toBe('1d1h');
    expect(formatDuration(-60_000)).toBe('-1m');
    expect(formatDuration(1_500)).toBe('1s500ms');
    for (const ms of [1, 999, 1000, 61_001, 86_400_000 * 9 + 7]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});

/** A fake timer source: fires at fixed virtual times and records when it ran. */
function fakeSource(name: string, dueTimes: number[], clock: VirtualClock, log: string[], onRun?: (at: number) => void): TimerSource {
  const pending = [...dueTimes].sort((a, b) => a - b);
  return {
    nextDueAt: () => pending[0] ?? null,
    async runDue() {
      while (pending.length > 0 && pending[0]! <= clock.now()) {
        const at = pending.shift()!;
        log.push(`${name}@${clock.now() - START}(due ${at - START})`);
        onRun?.(at);
      }
    },
  };
}

describe('Scheduler', () => {
  it('plays every due event in order, each at its own virtual time, and stops at the target', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const persisted: number[] = [];
    const scheduler = new Scheduler(clock, (offset) => persisted.push(offset));
    const log: string[] = [];
    scheduler.register(fakeSource('a', [START + 30_000, START + 90_000, START + 7_200_000], clock, log));
    scheduler.register(fakeSource('b', [START + 60_000, START + 90_000], clock, log));
    const { played } = await scheduler.advanceTo(START + 3_600_000);
    expect(log).toEqual(['a@30000(due 30000)', 'b@60000(due 60000)', 'a@90000(due 90000)', 'b@90000(due 90000)']);
    expect(played).toBe(3);
    expect(clock.now()).toBe(START + 3_600_000);
    expect(persisted.at(-1)).toBe(3_600_000);
    // Saved at the first step, every Scheduler.PERSIST_EVERY steps and at the end: never ahead of the clock.
    expect(persisted).toEqual([30_000, 3_600_000]);
    // The event after the target waits for the next advance.
    await scheduler.advanceTo(START + 7_200_000);
    expect(log.at(-1)).toBe('a@7200000(due 7200000)');
  });

  it('plays work scheduled by a source while it runs (a retry queued by an attempt)', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const scheduler = new Scheduler(clock, () => undefined);
    const log: string[] = [];
    const due: number[] = [START + 30_000];
    let attempts = 0;
    scheduler.register({
      nextDueAt: () => due[0] ?? null,
      async runDue() {
        if (due[0]! > clock.now()) return;
        due.shift();
        attempts += 1;
        log.push(String(clock.now() - START));
        if (attempts < 4) due.push(clock.now() + 30_000 * 2 ** attempts);
      },
    });
    const { played } = await scheduler.advanceTo(START + 10 * 60_000);
    expect(log).toEqual(['30000', '90000', '210000', '450000']);
    expect(played).toBe(4);
  });

  it('serializes concurrent advances and does not spin on a source that makes no progress', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const scheduler = new Scheduler(clock, () => undefined);
    let runs = 0;
    scheduler.register({ nextDueAt: () => START + 1000, runDue: async () => void (runs += 1) });
    const finished: string[] = [];
    const [a, b] = await Promise.all([
      scheduler.advanceTo(START + 5000).then((result) => (finished.push(`a at ${clock.now() - START}`), result)),
      scheduler.advanceTo(START + 2000).then((result) => (finished.push(`b at ${clock.now() - START}`), result)),
    ]);
    expect(a.played).toBeGreaterThan(0);
    expect(runs).toBeLessThan(10);
    // The second call ran after the first, and found its time already past: the clock never went back.
    expect(finished).toEqual(['a at 5000', 'b at 5000']);
    // Each call plays the due source a bounded number of times, and only its own plays count.
    expect(runs).toBe(a.played + b.played);
    expect(clock.now()).toBe(START + 5000);
  });

  it('advancing with nothing due just moves the clock', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const scheduler = new Scheduler(clock, () => undefined);
    // A move answers where it left the clock (CHOICE-45: a restore queued behind it cannot change that).
    expect(await scheduler.advanceTo(START + 25 * 3_600_000)).toEqual({ played: 0, now: START + 25 * 3_600_000, offsetMs: 25 * 3_600_000 });
    expect(clock.offsetMs).toBe(25 * 3_600_000);
  });
});

describe('Scheduler.advanceBy', () => {
  it('adds exactly the duration to the offset even while real time passes, playing due events on the way', async () => {
    let real = START;
    const clock = new VirtualClock({ base: () => real });
    const scheduler = new Scheduler(clock, () => undefined);
    const log: string[] = [];
    scheduler.register({
      nextDueAt: () => (log.length === 0 ? START + 60_000 : null),
      async runDue() {
        log.push(String(clock.now() - START));
        real += 7; // the event took 7 ms of real time to play
      },
    });
    real += 3; // real time moved before the advance ran
    const { played } = await scheduler.advanceBy(90 * 60_000);
    expect(played).toBe(1);
    expect(log).toEqual(['60000']);
    expect(clock.offsetMs).toBe(90 * 60_000);
    expect(clock.now()).toBe(real + 90 * 60_000);
  });
});
