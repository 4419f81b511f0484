import { readFileSync } from 'node:fs';
import type { FetchLike } from '../client/api.js';
import type { ControlClient } from '../client/control.js';
import { simulate, type ScanSummary } from '../sdk/simulate.js';
import { ScanResult } from '../contract/device.js';
import { parseJson } from '../contract/parse-json.js';
import { DEFAULT_RESULT_FILE, shippedIdentifiers, toSimulateOptions, type SimulateChoices } from '../sdk/simulate-options.js';
import { durationOf } from './values.js';

/** `scanctl scan simulate`'s choices, as options (the member is `user`). */
export interface SimulateScanOptions extends SimulateChoices {
  /** The scan happened offline this long ago ('2h', '3d' or ms) and syncs now with a fresh token. */
  offlineLate?: string | number;
  /** The scan result to upload (default: the bundled fixtures/results/default.json). */
  result?: Record<string, unknown>;
}

let defaultResult: Record<string, unknown> | null = null;

function bundledResult(): Record<string, unknown> {
  if (defaultResult) return defaultResult;
  const parsed = parseJson(ScanResult, readFileSync(DEFAULT_RESULT_FILE, 'utf8'));
  if (!parsed.ok) throw new Error(`the bundled result ${DEFAULT_RESULT_FILE} is not a scan result: ${parsed.message}`);
  return (defaultResult = parsed.value);
}

export async function simulateScans(
  control: ControlClient,
  credentials: { appId: string; secretKey: string },
  count: number,
  options: SimulateScanOptions,
  /** How the SDK's requests are sent (default: the global fetch); the simulate route sends them in process. */
  fetch?: FetchLike,
): Promise<ScanSummary[]> {
  const env = options.env ?? 'test';
  const secretKey = options.key ?? (env === 'test' ? credentials.secretKey : (await control.fixtureKeys(credentials.appId)).live?.secret);
  if (!secretKey) throw new Error(`simulateScan: the fixtures give ${credentials.appId} no ${env} secret key; pass key`);
  const { bundleId, teamId } = await shippedIdentifiers(control, () => credentials.appId, options);
  const run = {
    baseUrl: control.baseUrl,
    ...(fetch ? { fetch } : {}),
    secretKey,
    result: options.result ?? bundledResult(),
    bundleId,
    teamId,
    count,
    offlineLateMs: options.offlineLate === undefined ? null : durationOf(options.offlineLate),
  };
  return simulate(toSimulateOptions(options, run), () => undefined);
}
