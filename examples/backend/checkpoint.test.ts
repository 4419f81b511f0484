import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Checkpoint, type EmulatorHandle } from 'scanctl';

let emu: EmulatorHandle;
let baseline: Checkpoint;
beforeAll(async () => {
  emu = await startEmulator();
  await emu.updateApp({ results_delivery_enabled: true });
  baseline = await emu.checkpoint('baseline');
});
afterEach(() => baseline.restore());
afterAll(() => emu.close());

it('records a scan', async () => {
  await emu.simulateScan({ user: 'member_1' });
  expect(await emu.scans({ hostUserRef: 'member_1' })).toHaveLength(1);
});

it('starts from the checkpoint: the scan of the test before is gone', async () => {
  expect(await emu.scans({ hostUserRef: 'member_1' })).toEqual([]);
  expect((await emu.app()).results_delivery_enabled).toBe(true);
});
