import { describe, expect, it } from 'vitest';
import { ExchangeLog } from '../../../src/conform/exchanges.js';
import { ProbeKit, type KitSetups } from '../../../src/conform/kit.js';

const kitOf = () =>
  new ProbeKit({ baseUrl: 'http://127.0.0.1:9', key: 'sk_test_x', billable: false, slow: false }, new ExchangeLog(10), null);

describe("what the probes of one run share is the run's kit's own", () => {
  it('a setup runs once per kit, for the first probe that asks; another run sets it up again', async () => {
    const made: ProbeKit[] = [];
    const setUp = (kit: ProbeKit) => {
      made.push(kit);
      return Promise.resolve({ first: [], gaps: [] } satisfies KitSetups['webhookRetries']);
    };
    const [one, two] = [kitOf(), kitOf()];
    const first = one.setUpOnce('webhookRetries', setUp);
    expect(one.setUpOnce('webhookRetries', setUp)).toBe(first);
    expect(two.setUpOnce('webhookRetries', setUp)).not.toBe(first);
    await first;
    expect(made).toEqual([one, two]);
  });
});
