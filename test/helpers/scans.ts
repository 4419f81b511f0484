import { simulate } from '../../src/sdk/simulate.js';
import { toSimulateOptions } from '../../src/sdk/simulate-options.js';
import { DEMO } from './emulator.js';

/** Plays `count` completed scans of one member through the device routes of a running emulator; returns their scan ids. */
export async function playScans(baseUrl: string, count: number, hostUserRef = 'member_1'): Promise<string[]> {
  const summaries = await simulate(
    toSimulateOptions(
      { user: hostUserRef, uploadRetries: 0 },
      {
        baseUrl,
        secretKey: DEMO.testSecret,
        result: { modelVersion: 'x', measurements: { bodyFatPercent: 20, bmi: 22, girths: { waistCm: 80, hipCm: 95 } } },
        bundleId: DEMO.bundleId,
        teamId: DEMO.teamId,
        count,
        offlineLateMs: null,
      },
    ),
    () => undefined,
  );
  return summaries.map((s) => s.scan_id!);
}
