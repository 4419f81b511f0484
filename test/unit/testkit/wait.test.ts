import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../../src/index.js';
import { WEBHOOK_RETRY_GAPS_MS } from '../../../src/contract/choices.js';
import { DEMO } from '../../helpers/emulator.js';
import { startReceiver, type Behaviour, type Receiver } from '../../helpers/webhook-receiver.js';

const START = '2026-03-01T12:00:00.000Z';

describe("startEmulator's waitForDeliveries with a target: webhook wait's implementation", () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  async function emulatorTo(behaviour: Behaviour) {
    receiver = await startReceiver(DEMO.webhookSecret, behaviour);
    const emu = await startEmulator({ clock: { start: START, frozen: true } });
    await emu.updateApp({ webhook_url: receiver.url });
    return emu;
  }

  it('CHOICE-41, WH-9: playRetries plays the retry at its due time on the frozen clock, and it is acknowledged', async () => {
    await using emu = await emulatorTo((n) => (n === 1 ? 500 : 204));
    const scan = await emu.simulateScan({ user: 'member_1' });
    const [delivery] = await emu.waitForDeliveries({ scanId: scan.scan_id, playRetries: true });
    expect(delivery!.attempt_log.map((a) => [a.status, a.started_at])).toEqual([
      [500, START],
      [204, new Date(Date.parse(START) + WEBHOOK_RETRY_GAPS_MS[0]!).toISOString()],
    ]);
    expect(emu.clock.now().getTime()).toBe(Date.parse(START) + WEBHOOK_RETRY_GAPS_MS[0]!);
  });

  it('CHOICE-42: until attempted resolves after the first attempt, the clock unmoved; a goal that cannot be met rejects', async () => {
    await using emu = await emulatorTo(() => 500);
    await emu.simulateScan({ user: 'member_2' });
    const [first] = await emu.waitForDeliveries({ hostUserRef: 'member_2', until: 'attempted' });
    expect(first!.attempt_log.map((a) => a.status)).toEqual([500]);
    expect(emu.clock.now().toISOString()).toBe(START);
    await expect(emu.waitForDeliveries({ hostUserRef: 'member_2', playRetries: true })).rejects.toThrow(
      /not acknowledged \(failed\): delivery del_\w+ \(failed, 17 attempts, last status 500\)/,
    );
    await expect(emu.waitForDeliveries({ scanId: 'scn_none' })).rejects.toThrow(/\(none\): no delivery/);
    // No target: the app's deliveries, here the one exhausted above.
    expect((await emu.waitForDeliveries({ until: 'exhausted' })).map((d) => d.attempts)).toEqual([17]);
  });

  it("a refused scan's null scan_id filters to nothing and its wait rejects at once, never the whole app's", async () => {
    await using emu = await emulatorTo(() => 204);
    await emu.simulateScan({ user: 'member_3' });
    expect(await emu.waitForDeliveries()).not.toHaveLength(0);
    const refused = await emu.simulateScan({ user: 'member_4', bundleId: 'com.example.other' });
    expect(refused).toMatchObject({ state: 'refused', scan_id: null, refusal: { step: 'enroll', code: 'attestation_invalid' } });
    expect(await emu.deliveries({ scanId: refused.scan_id })).toEqual([]);
    await expect(emu.waitForDeliveries({ scanId: refused.scan_id, timeoutMs: 60_000 })).rejects.toThrow(
      /scanId is null: the simulated scan was refused/,
    );
  });
});
