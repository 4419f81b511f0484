import { describe, expect, it } from 'vitest';
import { ChaosHold } from '../../../src/contract/chaos.js';
import { CHOICES } from '../../../src/contract/choices.js';
import type { ChaosRow } from '../../../src/store/tables/chaos.js';
import { chaosOrder, chaosVerdict, NO_CHAOS, orderFor, verdictFor } from '../../../src/webhooks/chaos.js';
import { DEMO, expectErrorBody, testEmulator } from '../../helpers/emulator.js';

const setting = (over: Partial<ChaosRow> = {}): ChaosRow => ({
  app_id: 'app_demo',
  seed: 7,
  drop_probability: 0,
  duplicate_probability: 0,
  delay_ms: null,
  delay_probability: 0,
  reorder: 0,
  fail_first: 0,
  fail_status: 500,
  created_at: 0,
  updated_at: 0,
  ...over,
});

const ids = Array.from({ length: 400 }, (_, i) => `del_${String(i).padStart(6, '0')}`);

describe('delivery chaos verdicts', () => {
  it('no setting: every attempt is delivered as is', () => {
    const emu = testEmulator();
    expect(chaosVerdict(emu.store, DEMO.appId, 'del_1', 1)).toEqual(NO_CHAOS);
    expect(chaosOrder(emu.store, DEMO.appId, [{ id: 'b' }, { id: 'a' }])).toEqual([{ id: 'b' }, { id: 'a' }]);
  });

  it('fail-first N fails attempts 1..N with the chosen status, then draws normally', () => {
    const s = setting({ fail_first: 2, fail_status: 503 });
    expect(verdictFor(s, 'del_1', 1)).toEqual({ action: 'fail', failStatus: 503, delayMs: 0, duplicate: false });
    expect(verdictFor(s, 'del_1', 2)).toMatchObject({ action: 'fail', failStatus: 503 });
    expect(verdictFor(s, 'del_1', 3)).toEqual(NO_CHAOS);
  });

  it('the same seed gives the same verdicts whatever the order of asking (keyed by seed, delivery, attempt)', () => {
    const s = setting({ drop_probability: 0.3, duplicate_probability: 0.2, delay_probability: 0.25, reorder: 1 });
    const forward = ids.map((id) => verdictFor(s, id, 1));
    const backward = [...ids]
      .reverse()
      .map((id) => verdictFor(s, id, 1))
      .reverse();
    // Interleave other attempts in between: no shared stream to disturb.
    const interleaved = ids.map((id) => (verdictFor(s, id, 5), verdictFor(s, id, 1)));
    expect(backward).toEqual(forward);
    expect(interleaved).toEqual(forward);
    const other = ids.map((id) => verdictFor({ ...s, seed: 8 }, id, 1));
    expect(other).not.toEqual(forward);
  });

  it('probabilities come out near their rates over many deliveries', () => {
    const s = setting({ drop_probability: 0.3, duplicate_probability: 0.2 });
    const verdicts = ids.map((id) => verdictFor(s, id, 1));
    const dropped = verdicts.filter((v) => v.action === 'drop').length / ids.length;
    const delivered = verdicts.filter((v) => v.action === 'deliver');
    const duplicated = delivered.filter((v) => v.duplicate).length / delivered.length;
    expect(dropped).toBeGreaterThan(0.22);
    expect(dropped).toBeLessThan(0.38);
    expect(duplicated).toBeGreaterThan(0.13);
    expect(duplicated).toBeLessThan(0.27);
    // A later attempt of a dropped delivery draws again: a drop is retried, not lost for good.
    const droppedIds = ids.filter((_, i) => verdicts[i]!.action === 'drop');
    expect(droppedIds.some((id) => verdictFor(s, id, 2).action === 'deliver')).toBe(true);
  });

  it('delay: a fixed delay on the chosen share of attempts, or a seeded one within the bound', () => {
    const fixed = setting({ delay_ms: 30_000, delay_probability: 1 });
    expect(ids.every((id) => verdictFor(fixed, id, 1).delayMs === 30_000)).toBe(true);
    const random = setting({ delay_probability: 0.5 });
    const delays = ids.map((id) => verdictFor(random, id, 1).delayMs);
    expect(delays.filter((d) => d === 0).length).toBeGreaterThan(120);
    expect(delays.every((d) => d === 0 || (d >= 1000 && d <= CHOICES.chaosMaxRandomDelayMs))).toBe(true);
  });

  it('the longest delay with reorder jitter is a verdict its hold keeps (a held attempt reads its hold back)', () => {
    const s = setting({ delay_ms: 7 * 24 * 3_600_000, delay_probability: 1, reorder: 1 });
    const verdicts = ids.map((id) => verdictFor(s, id, 1));
    expect(Math.max(...verdicts.map((v) => v.delayMs))).toBeGreaterThan(7 * 24 * 3_600_000);
    expect(verdicts.filter((verdict) => !ChaosHold.safeParse({ attempt: 1, verdict }).success)).toEqual([]);
  });

  it('reorder: a seeded order independent of the order the batch came in, and first-attempt jitter', () => {
    const batch = ids.slice(0, 20).map((id) => ({ id }));
    const a = orderFor(7, batch);
    const b = orderFor(7, [...batch].reverse());
    expect(a).toEqual(b);
    expect(a).not.toEqual(batch);
    const s = setting({ reorder: 1 });
    const jitter = ids.map((id) => verdictFor(s, id, 1).delayMs);
    expect(new Set(jitter).size).toBeGreaterThan(100);
    expect(jitter.every((d) => d >= 0 && d <= CHOICES.chaosReorderWindowMs)).toBe(true);
    expect(verdictFor(s, 'del_x', 2).delayMs).toBe(0);
  });

  it('is set per app through the control plane, shown, and turned off', async () => {
    const emu = testEmulator();
    const set = await emu.call('PUT', '/_scanctl/apps/app_demo/chaos', { json: { duplicate: 0.2, fail_first: 2, seed: 7 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      object: 'chaos',
      app_id: 'app_demo',
      enabled: true,
      seed: 7,
      duplicate: 0.2,
      fail_first: 2,
      fail_status: 500,
    });
    expect(chaosVerdict(emu.store, 'app_demo', 'del_1', 1)).toMatchObject({ action: 'fail', failStatus: 500 });
    expect(chaosVerdict(emu.store, 'app_trial', 'del_1', 1)).toEqual(NO_CHAOS);
    const shown = await emu.call('GET', '/_scanctl/apps/app_demo/chaos');
    expect(shown.body).toEqual(set.body);
    const off = await emu.call('DELETE', '/_scanctl/apps/app_demo/chaos');
    expect(off.body).toMatchObject({ enabled: false, seed: null });
    expect(chaosVerdict(emu.store, 'app_demo', 'del_1', 1)).toEqual(NO_CHAOS);
  });

  it('picks and returns a seed when none is given; refuses bad values with the spec error body', async () => {
    const emu = testEmulator();
    const set = await emu.call('PUT', '/_scanctl/apps/app_demo/chaos', { json: { drop: 0.1 } });
    expect(Number.isInteger(set.body.seed)).toBe(true);
    for (const json of [{ drop: 1.5 }, { fail_first: -1 }, { seed: -3 }, { bogus: 1 }]) {
      const r = await emu.call('PUT', '/_scanctl/apps/app_demo/chaos', { json });
      expect(r.status).toBe(400);
      expectErrorBody(r.body);
    }
    expect((await emu.call('PUT', '/_scanctl/apps/app_nope/chaos', { json: {} })).status).toBe(404);
  });
});
