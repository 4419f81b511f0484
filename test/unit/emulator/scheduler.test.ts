import { describe, expect, it } from 'vitest';
import { VirtualClock, frozenBase } from '../../../src/clock/clock.js';
import { HOUR, WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import { applyFixtures } from '../../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../../src/emulator/fixture-file.js';
import { Scheduler } from '../../../src/emulator/scheduler.js';
import { openDatabase } from '../../../src/store/db.js';
import { createStore } from '../../../src/store/index.js';
import { SecretBox } from '../../../src/util/crypto.js';
import { randomIds } from '../../../src/util/ids.js';
import { createWebhookEngine } from '../../../src/webhooks/engine.js';
import { recordScanEvent } from '../../../src/webhooks/outbox.js';
import { DEMO, FIXTURES_FILE } from '../../helpers/emulator.js';

/**
 * A steady load during an advance: every delivery sent brings a new scan (up to `arrivals`), and
 * the receiver fails each delivery's first attempt, so every arrival has a retry 30 s later.
 */
function loadedEmulator(arrivals: number) {
  const store = createStore(openDatabase(':memory:'));
  // Real time passes while serve works: each send takes 1 ms of it (as under serve, where the clock is real time plus an offset).
  let realMs = frozenBase()();
  const clock = new VirtualClock({ base: () => realMs });
  const box = SecretBox.random();
  applyFixtures(store, randomIds, box, clock.now(), readFixtures(FIXTURES_FILE));
  store.apps.updateSettings({ ...store.apps.get(DEMO.appId)!, webhook_url: 'http://127.0.0.1:9/hook', now: clock.now() });
  const attempts = new Map<string, number[]>();
  let arrived = 0;
  const scan = () =>
    recordScanEvent(store, randomIds, clock.now(), {
      type: 'scan.completed',
      appId: DEMO.appId,
      scanId: `scan_${arrived++}`,
      hostUserRef: 'member_1',
      occurredAt: clock.now(),
      modelVersion: 'bodyscan-2026.1',
    });
  const engine = createWebhookEngine({
    store,
    clock,
    box,
    events: { wanted: () => false, emit: () => undefined },
    userAgent: 'scanctl-emulator/test',
    concurrency: 1,
    send: async (request) => {
      const id = request.headers['Service-Event-Id']!;
      realMs += 1;
      const times = attempts.get(id) ?? [];
      times.push(clock.now());
      attempts.set(id, times);
      if (arrived < arrivals) scan();
      return { status: times.length === 1 ? 503 : 204, latencyMs: 1, error: null, excerpt: null };
    },
  });
  const scheduler = new Scheduler(clock, () => undefined);
  scheduler.register(engine);
  return { clock, scheduler, attempts, scan, arrivedCount: () => arrived };
}

describe('a clock advance under a steady load', () => {
  it('CHOICE-9: a 60 h advance plays the work due in its window and ends; what arrives meanwhile waits for its end; every schedule exact', async () => {
    const { clock, scheduler, attempts, scan, arrivedCount } = loadedEmulator(500);
    for (let i = 0; i < 5; i += 1) scan();
    const start = clock.now();
    const target = start + 60 * HOUR;
    const { played } = await scheduler.advanceTo(target);
    // The window's own work: the five first attempts (one moment) and their five retries (each 30 s
    // after its own failure: five moments), plus at most three rounds at the end for what arrived
    // meanwhile. Not a round per arrival (without holding arrivals: 600, until the load stopped).
    expect(played).toBeLessThanOrEqual(1 + 5 + 3);
    expect(arrivedCount()).toBeLessThan(500);
    for (const [id, times] of attempts) {
      // A retry 30 s after its failed first attempt was recorded (the sends in between take a ms each): never early.
      if (times.length === 2) {
        expect(times[1]! - times[0]!, id).toBeGreaterThanOrEqual(WEBHOOK_RETRY_GAPS_MS[0]!);
        expect(times[1]! - times[0]!, id).toBeLessThanOrEqual(WEBHOOK_RETRY_GAPS_MS[0]! + 10);
      }
    }
    // What arrived during the advance was first sent at its end, not in the middle of the window.
    const firsts = [...attempts.values()].map((times) => times[0]!).sort((a, b) => a - b);
    expect(firsts.filter((t) => t > start + 10 && t < target)).toEqual([]);
  });
});

describe('`clock advance 24h` under a load that never stops', () => {
  it('CHOICE-9: an advance by an offset, whose target moves on with real time, ends; what arrives meanwhile is claimed by nobody until its end', async () => {
    // Every send brings a new scan and takes 1 ms of real time: the load outlasts any advance that chases it.
    const { clock, scheduler, attempts, scan, arrivedCount } = loadedEmulator(100_000);
    for (let i = 0; i < 5; i += 1) scan();
    const start = clock.now();
    const { played } = await scheduler.advanceBy(24 * HOUR);
    expect(played).toBeLessThanOrEqual(1 + 5 + 3);
    expect(arrivedCount()).toBeLessThan(100);
    const firsts = [...attempts.values()].map((times) => times[0]!);
    expect(firsts.filter((t) => t > start + 10 && t < start + 24 * HOUR)).toEqual([]);
    // Once it has ended, what arrived is due: the next move sends it.
    const before = attempts.size;
    await scheduler.advanceBy(1);
    expect(attempts.size).toBeGreaterThan(before);
  });
});

describe('a clock move at a stop (CHOICE-35)', () => {
  it('CHOICE-35: a move under way stops after the due moment it is playing, saves the clock there and answers service_stopping; later moves too', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const start = clock.now();
    const due = [start + 1_000, start + 2_000, start + 3_000];
    let release!: () => void;
    const playing = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const saved: number[] = [];
    const scheduler = new Scheduler(clock, (offset) => saved.push(offset));
    scheduler.register({
      nextDueAt: () => due.find((t) => t > clock.now() - 1 && t >= clock.now()) ?? null,
      runDue: async () => {
        due.splice(due.indexOf(clock.now()), 1);
        entered();
        await playing;
      },
    });
    const move = scheduler.advanceTo(start + 10_000);
    await started;
    const stopped = scheduler.stop();
    release();
    await expect(move).rejects.toMatchObject({ code: 'service_stopping', status: 503 });
    await stopped;
    expect(clock.now()).toBe(start + 1_000);
    expect(saved.at(-1)).toBe(1_000);
    await expect(scheduler.advanceTo(start + 20_000)).rejects.toMatchObject({ code: 'service_stopping' });
  });
});

describe('work in flight when an advance starts', () => {
  it('CHOICE-9: an attempt already on the wire when the clock advances is waited for, and the retry its outcome schedules inside the window is played', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const scheduler = new Scheduler(clock, () => undefined);
    // One attempt in flight (sent before the advance): nothing is due until it ends, then its retry is.
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (release = resolve));
    let retryAt: number | null = null;
    const played: number[] = [];
    scheduler.register({
      nextDueAt: () => retryAt,
      runDue: async () => {
        played.push(clock.now());
        retryAt = null;
      },
      settle: () => inFlight,
    });
    const start = clock.now();
    const advanced = scheduler.advanceBy(HOUR);
    // The attempt ends a turn of the event loop after the advance began, and schedules its retry 30 s on.
    setImmediate(() => {
      retryAt = start + WEBHOOK_RETRY_GAPS_MS[0]!;
      release();
    });
    expect(await advanced).toMatchObject({ played: 1 });
    expect(played).toEqual([start + WEBHOOK_RETRY_GAPS_MS[0]!]);
    expect(clock.now()).toBe(start + HOUR);
  });
});

describe('a restore queued behind a clock advance (CHOICE-45)', () => {
  it('CHOICE-45: the advance answers where it moved the clock, not where the restore queued behind it put it', async () => {
    const clock = new VirtualClock({ base: frozenBase() });
    const scheduler = new Scheduler(clock, () => undefined);
    // A source with work in flight: the advance waits for it, and meanwhile a restore is queued.
    let release!: () => void;
    const inFlight = new Promise<void>((resolve) => (release = resolve));
    scheduler.register({ nextDueAt: () => null, runDue: async () => undefined, settle: () => inFlight });
    const advance = scheduler.advanceBy(2 * HOUR);
    const restore = scheduler.exclusive(() => clock.restoreOffset(0));
    release();
    const [moved] = await Promise.all([advance, restore]);
    expect(moved).toMatchObject({ played: 0, offsetMs: 2 * HOUR, now: Date.parse('2026-11-22T12:00:00.000Z') });
    expect(clock.offsetMs).toBe(0);
  });
});
