import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/index.js';
import { IDLE_MS } from '../../../src/webhooks/sender.js';
import { pollUntil } from '../../helpers/wait.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';

/** What keeps this process alive now, by kind (TCPSocketWrap, TCPServerWrap, Timeout, ...), counted. */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The kinds of which the process holds more now than in `before`, with how many more. */
function gained(before: Record<string, number>): Record<string, number> {
  const more: Record<string, number> = {};
  for (const [kind, count] of Object.entries(resources())) if (count > (before[kind] ?? 0)) more[kind] = count - (before[kind] ?? 0);
  return more;
}

/**
 * A closed socket or server leaves the list a turn of the event loop after its close (libuv runs the
 * handle's close callback on the next iteration), so the check allows a moment for that, and no more:
 * far less than the sender's keep-alive (IDLE_MS), so a connection left open fails it.
 */
const SETTLE_MS = 500;

describe('startEmulator leaves nothing behind', () => {
  it('started and stopped 20 times, each with a delivery to a loopback receiver: no socket, timer or handle is left that was not there before', async () => {
    expect(SETTLE_MS).toBeLessThan(IDLE_MS / 4);
    // Each round its own receiver (its own origin, so its own pool), all listening before the count is taken.
    const receivers = await Promise.all(Array.from({ length: 20 }, () => startReceiver('whsec_unused')));
    try {
      const before = resources();
      for (const [i, receiver] of receivers.entries()) {
        const emu = await startEmulator({ clock: { frozen: true } });
        await emu.updateApp({ webhook_url: receiver.url });
        await emu.simulateScan({ user: `member_${i}` });
        expect(await emu.waitForDeliveries()).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
        expect(receiver.received).toHaveLength(1);
        await emu.close();
      }
      await pollUntil('the closed handles to leave', () => Object.keys(gained(before)).length === 0, SETTLE_MS).catch(() => {});
      expect(gained(before)).toEqual({});
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });
});
