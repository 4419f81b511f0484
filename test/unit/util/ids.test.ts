import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomIds } from '../../../src/util/ids.js';

/** Random ids: the shape every id has had (prefix, 20 base62 characters), in the order they were made. */
describe('random ids', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keep their shape, are unique in a burst, and sort in the order they were made across milliseconds', () => {
    const burst = Array.from({ length: 20_000 }, () => randomIds.id('dlv'));
    for (const id of burst.slice(0, 100)) expect(id).toMatch(/^dlv_[A-Za-z0-9]{20}$/);
    expect(new Set(burst).size).toBe(burst.length);

    const times = [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_062, 1_800_000_000_000, 3_000_000_000_000];
    const now = vi.spyOn(Date, 'now');
    const made = times.map((ms) => {
      now.mockReturnValue(ms);
      return randomIds.id('evt');
    });
    expect([...made].sort()).toEqual(made);
  });

  it('secrets stay wholly random (no time in them)', () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const [a, b] = [randomIds.secret('sk_test_'), randomIds.secret('sk_test_')];
    expect(a.slice(0, 15)).not.toBe(b.slice(0, 15));
    now.mockRestore();
  });
});
