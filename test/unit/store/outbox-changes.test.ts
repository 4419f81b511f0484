import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/db.js';
import { createStore } from '../../../src/store/index.js';
import type { OutboxChange } from '../../../src/store/outbox-changes.js';
import { testEmulator } from '../../helpers/emulator.js';

describe("a store's outbox owns its subscribers", () => {
  it('a change reaches the subscribers of its own store only, on the next turn, until they unsubscribe', async () => {
    const one = createStore(openDatabase(':memory:'));
    const two = createStore(openDatabase(':memory:'));
    const heard: Array<[string, OutboxChange]> = [];
    const stopOne = one.outbox.subscribe((change) => heard.push(['one', change]));
    two.outbox.subscribe((change) => heard.push(['two', change]));
    expect([one.outbox.size, two.outbox.size]).toEqual([1, 1]);

    one.outbox.announce({ kind: 'queued', deliveryId: 'del_1' });
    // The writer is still inside its transaction: nobody hears of it yet.
    expect(heard).toEqual([]);
    await new Promise(setImmediate);
    expect(heard).toEqual([['one', { kind: 'queued', deliveryId: 'del_1' }]]);

    stopOne();
    expect(one.outbox.size).toBe(0);
    one.outbox.announce({ kind: 'cancelled', deliveryIds: ['del_1'] });
    two.outbox.announce({ kind: 'cancelled', deliveryIds: ['del_2'] });
    await new Promise(setImmediate);
    expect(heard.slice(1)).toEqual([['two', { kind: 'cancelled', deliveryIds: ['del_2'] }]]);
  });

  it("the emulator's engine is the one subscriber of its store's outbox, and a second store's engine is not on it", () => {
    const a = testEmulator();
    const b = testEmulator();
    expect(a.store.outbox.size).toBe(1);
    expect(b.store.outbox.size).toBe(1);
    expect(a.store.outbox).not.toBe(b.store.outbox);
  });
});
