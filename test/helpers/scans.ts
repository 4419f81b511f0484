import { simulate } from '../../src/sdk/simulate.js';
import { DEMO } from './emulator.js';

/** Plays `count` completed scans of one member through the device routes of a running emulator; returns their scan ids. */
export async function playScans(baseUrl: string, count: number, hostUserRef = 'member_1'): Promise<string[]> {
  const summaries = await simulate(
    {
      baseUrl,
      secretKey: DEMO.testSecret,
      hostUserRef,
      outcome: 'completed',
      count,
      offlineLateMs: null,
      result: { modelVersion: 'x', measurements: { bodyFatPercent: 20, bmi: 22, girths: { waistCm: 80, hipCm: 95 } } },
      noScope: false,
      duplicateReport: false,
      uploadRetries: 0,
      installationId: null,
      reinstall: false,
      bundleId: DEMO.bundleId,
      teamId: DEMO.teamId,
      appVersion: '1.0.0',
    },
    () => undefined,
  );
  return summaries.map((s) => s.scan_id!);
}
