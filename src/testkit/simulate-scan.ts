import { readFileSync } from 'node:fs';
import type { ControlClient } from '../client/control.js';
import { simulate, type ScanSummary } from '../sdk/simulate.js';
import { packagePath } from '../util/package-root.js';
import { durationOf } from './values.js';

/** `scanctl scan simulate`'s flags, as options (the member is `user`). */
export interface SimulateScanOptions {
  /** The member's host_user_ref. */
  user: string;
  outcome?: 'completed' | 'failed' | 'abandoned';
  /** Which of the app's secret keys mints the session (default test; the environment is fixed by the key). */
  env?: 'test' | 'live';
  /** A secret key to mint with instead of the fixture key of `env`. */
  key?: string;
  /** The scan happened offline this long ago ('2h', '3d' or ms) and syncs now with a fresh token. */
  offlineLate?: string | number;
  /** The scan result to upload (default: the bundled fixtures/results/default.json). */
  result?: Record<string, unknown>;
  /** false: mint without scan.create, to see 403 insufficient_scope. */
  scope?: boolean;
  /** Report each outcome and upload each result twice, as a device whose acknowledgement was lost. */
  duplicateReport?: boolean;
  /** Retries of a result upload that failed transiently (default 2). */
  uploadRetries?: number;
  /** An installation the device already has; without one a fresh install enrolls. */
  installation?: string;
  reinstall?: boolean;
  /** The shipped app's identifiers (default: the app's), to see attestation_invalid. */
  bundleId?: string;
  teamId?: string;
  appVersion?: string;
}

let defaultResult: Record<string, unknown> | null = null;

export async function simulateScans(
  control: ControlClient,
  credentials: { appId: string; secretKey: string },
  count: number,
  options: SimulateScanOptions,
): Promise<ScanSummary[]> {
  const env = options.env ?? 'test';
  const secretKey = options.key ?? (env === 'test' ? credentials.secretKey : (await control.fixtureKeys(credentials.appId)).live?.secret);
  if (!secretKey) throw new Error(`simulateScan: the fixtures give ${credentials.appId} no ${env} secret key; pass key`);
  let { bundleId, teamId } = options;
  if (bundleId === undefined || teamId === undefined) {
    const app = await control.app(credentials.appId);
    bundleId ??= app.bundle_id;
    teamId ??= app.team_id;
  }
  defaultResult ??= JSON.parse(readFileSync(packagePath('fixtures', 'results', 'default.json'), 'utf8')) as Record<string, unknown>;
  return simulate(
    {
      baseUrl: control.baseUrl,
      secretKey,
      hostUserRef: options.user,
      outcome: options.outcome ?? 'completed',
      count,
      offlineLateMs: options.offlineLate === undefined ? null : durationOf(options.offlineLate),
      result: options.result ?? defaultResult,
      noScope: options.scope === false,
      duplicateReport: Boolean(options.duplicateReport),
      uploadRetries: options.uploadRetries ?? 2,
      installationId: options.installation ?? null,
      reinstall: Boolean(options.reinstall),
      bundleId,
      teamId,
      appVersion: options.appVersion ?? '1.0.0',
    },
    () => undefined,
  );
}
