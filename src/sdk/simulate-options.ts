import type { ControlClient } from '../client/control.js';
import type { KeyEnv } from '../contract/credentials.js';
import type { ScanOutcome } from '../contract/device.js';
import { packagePath } from '../util/package-root.js';
import type { SimulateOptions } from './simulate-events.js';

/**
 * What a developer chooses about a simulated scan, declared once: `scanctl scan simulate`'s flags
 * and the testkit's `simulateScan` options both extend it (each adds how it takes the result and
 * the offline delay), and `toSimulateOptions` turns either into what the SDK engine runs.
 */
export interface SimulateChoices {
  /** The member's host_user_ref. */
  user: string;
  /** How the scan ends (default completed). */
  outcome?: ScanOutcome;
  /** Which of the app's secret keys mints the session (default test; the environment is fixed by the key). */
  env?: KeyEnv;
  /** A secret key to mint with instead of the fixture key of `env`. */
  key?: string;
  /** false: mint without scan.create, to see 403 insufficient_scope. */
  scope?: boolean;
  /** Report each outcome and upload each result twice, as a device whose acknowledgement was lost. */
  duplicateReport?: boolean;
  /** Retries of a result upload that failed transiently: 5xx, 429, network (default 2). */
  uploadRetries?: number;
  /** An installation the device already has (enrolled once; survives app updates); without one a fresh install enrolls. */
  installation?: string;
  /** The app was reinstalled: the installation enrolls again. */
  reinstall?: boolean;
  /** The shipped app's bundle identifier (default: the app's), to see attestation_invalid. */
  bundleId?: string;
  /** The shipped app's team identifier (default: the app's), to see attestation_invalid. */
  teamId?: string;
  /** The app version the installation reports (default 1.0.0). */
  appVersion?: string;
}

/** The defaults of the choices that have one, for the engine and for the CLI's help. */
export const SIMULATE_DEFAULTS = {
  outcome: 'completed',
  uploadRetries: 2,
  appVersion: '1.0.0',
} as const satisfies Partial<SimulateChoices>;

/** The scan result uploaded when none is given. */
export const DEFAULT_RESULT_FILE = packagePath('fixtures', 'results', 'default.json');

/**
 * The identifiers the device reports in its attestation: the ones given, else the app's own. The
 * real SDK reads them from the app binary; locally they come from the app's portal settings.
 */
export async function shippedIdentifiers(
  control: ControlClient,
  appId: () => string | Promise<string>,
  choices: Pick<SimulateChoices, 'bundleId' | 'teamId'>,
): Promise<{ bundleId: string; teamId: string }> {
  let { bundleId, teamId } = choices;
  // Both given: the emulator is not asked (the app may not even be known to it).
  if (bundleId === undefined || teamId === undefined) {
    const app = await control.app(await appId());
    bundleId ??= app.bundle_id;
    teamId ??= app.team_id;
  }
  return { bundleId, teamId };
}

/** What the run needs besides the choices: where, with which key, what to upload, how many. */
export interface SimulateRun {
  baseUrl: string;
  fetch?: SimulateOptions['fetch'];
  signal?: AbortSignal;
  secretKey: string;
  result: Record<string, unknown>;
  bundleId: string;
  teamId: string;
  count: number;
  offlineLateMs: number | null;
}

/** The engine's options from the choices, with the defaults filled in. */
export function toSimulateOptions(choices: SimulateChoices, run: SimulateRun): SimulateOptions {
  return {
    baseUrl: run.baseUrl,
    ...(run.fetch ? { fetch: run.fetch } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
    secretKey: run.secretKey,
    hostUserRef: choices.user,
    outcome: choices.outcome ?? SIMULATE_DEFAULTS.outcome,
    count: run.count,
    offlineLateMs: run.offlineLateMs,
    result: run.result,
    noScope: choices.scope === false,
    duplicateReport: Boolean(choices.duplicateReport),
    uploadRetries: choices.uploadRetries ?? SIMULATE_DEFAULTS.uploadRetries,
    installationId: choices.installation ?? null,
    reinstall: Boolean(choices.reinstall),
    bundleId: run.bundleId,
    teamId: run.teamId,
    appVersion: choices.appVersion ?? SIMULATE_DEFAULTS.appVersion,
  };
}
