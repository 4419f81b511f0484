import { createHash } from 'node:crypto';
import { setTimeout as sleepReal } from 'node:timers/promises';
import { ApiCallError, ConnectionError } from '../client/http.js';
import { mintSession } from '../client/service.js';
import { CHOICES } from '../contract/choices.js';
import { secretKeyEnv, type KeyEnv } from '../contract/credentials.js';
import type { ScanStatus } from '../contract/device.js';
import type { ErrorBody } from '../contract/errors.js';
import { base62From } from '../util/crypto.js';
import { DeviceClient } from './client.js';
import {
  EXPECTED_REFUSALS,
  SimulationError,
  type Refusal,
  type ScanSummary,
  type SimEvent,
  type SimStep,
  type SimulateOptions,
  type StepName,
} from './simulate-events.js';

/**
 * The simulated SDK: plays one member's scans through the device routes exactly as the SDK
 * would, and EMITS what happens (steps, one summary per scan). It never prints; the command renders.
 */
export * from './simulate-events.js';

const RETRY_AFTER_CAP_MS = 10_000;
const MINT_ATTEMPTS = 5;
const REPORT_RETRIES = 2;

const isExpected = (error: unknown): error is ApiCallError =>
  error instanceof ApiCallError && (EXPECTED_REFUSALS as readonly string[]).includes(error.error?.code ?? '');
const isTransient = (error: unknown) =>
  error instanceof ConnectionError ||
  (error instanceof ApiCallError && (error.status >= 500 || (error.status === 429 && error.error?.code !== 'quota_exceeded')));

/**
 * The device's own ids (installation, scan, idempotency keys), drawn from the session token it was
 * given, as a hash: as random as the token against the service, and the same on every run against
 * an emulator whose tokens are seeded (`serve --seed`), so that seeded runs repeat byte for byte.
 */
function deviceId(prefix: string, length: number, ...parts: Array<string | number>): string {
  let block = 0;
  return `${prefix}_${base62From(length, () => createHash('sha256').update([...parts, block++].join('\u0000')).digest())}`;
}

function refusalOf(step: StepName, error: ApiCallError): Refusal {
  const body = error.error as ErrorBody['error'];
  return { step, status: error.status, code: body.code, message: body.message };
}

/** Wait before retry `attempt` (1-based): Retry-After when the service gave one (capped), else 250 ms doubling. */
function retryWait(error: unknown, attempt: number): number {
  const header = error instanceof ApiCallError ? Number(error.headers.get('retry-after')) : NaN;
  if (Number.isFinite(header) && header >= 0) return Math.min(header * 1000, RETRY_AFTER_CAP_MS);
  return Math.min(250 * 2 ** (attempt - 1), 4000);
}

export async function simulate(options: SimulateOptions, emit: (event: SimEvent) => void): Promise<ScanSummary[]> {
  const sleep = options.sleep ?? ((ms: number) => sleepReal(ms).then(() => undefined));
  const env = secretKeyEnv(options.secretKey) ?? 'test';
  let installationId = options.installationId;
  const summaries: ScanSummary[] = [];
  let enrolledThisRun = false;
  let enrollmentDone = false;
  let model: { version: string } | null = null;
  let uploadsDisabled = false;
  let announcedKnown = false;

  for (let index = 1; index <= options.count; index += 1) {
    const summary: ScanSummary = {
      object: 'simulated_scan',
      index,
      host_user_ref: options.hostUserRef,
      env,
      installation_id: installationId ?? '',
      scan_id: null,
      outcome: options.outcome,
      state: 'refused',
      occurred_at: null,
      billable: null,
      result: 'none',
      refusal: null,
      steps: [],
    };
    const record = (step: SimStep) => {
      summary.steps.push(step);
      emit({ type: 'step', index, step });
    };
    let current: StepName = 'mint';
    /** Runs one step; an expected refusal ends this scan (returns null), anything else breaks the run. */
    const run = async <T>(step: StepName, fn: () => Promise<T>, retries = 0): Promise<T | null> => {
      current = step;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await fn();
        } catch (error) {
          if (isExpected(error)) {
            summary.refusal = refusalOf(step, error);
            record({ step: 'refused', refusal: summary.refusal });
            return null;
          }
          if (attempt > retries || !isTransient(error)) throw error;
          const wait = retryWait(error, attempt);
          record({ step: 'retry', at: step, attempt, wait_ms: wait, reason: (error as Error).message });
          await sleep(wait);
        }
      }
    };

    try {
      const device = new DeviceClient(options.baseUrl, '', options.fetch);
      current = 'mint';
      const minted = await mint(options, env, 'scan', record, sleep);
      device.token = minted.token;
      let now = minted.now;
      // A fresh install names itself once, from the first token it sees.
      installationId ??= deviceId('ins', 16, 'installation', minted.token);
      summary.installation_id = installationId;
      const enrolledAs = installationId;

      const enroll = async () => {
        const challenge = await run('enroll', () => device.challenge());
        if (!challenge) return false;
        const enrolled = await run('enroll', () =>
          device.enroll({
            installation_id: enrolledAs,
            app_version: options.appVersion,
            attestation: { format: 'stub', challenge: challenge.challenge, bundle_id: options.bundleId, team_id: options.teamId },
          }),
        );
        if (!enrolled) return false;
        enrolledThisRun = true;
        record({ step: 'enroll', installation_id: enrolledAs, reenrolled: enrolled.reenrolled, enrollments: enrolled.enrollments, status: enrolled.status });
        return true;
      };

      if (!enrollmentDone) {
        enrollmentDone = true;
        if (!options.installationId || options.reinstall) {
          // DEV-1: a fresh install (or a reinstall) enrolls before its first scan.
          if (!(await enroll())) {
            summaries.push(finish(summary, emit));
            break; // Without an enrollment no scan can run at all.
          }
        }
      }

      if (!model) {
        const manifest = await run('model', () => device.models());
        const current = manifest!.data.find((m) => m.current) ?? manifest!.data[0]!;
        const bytes = await run('model', () => device.downloadModel(current.model_version));
        const sha256 = createHash('sha256').update(bytes!).digest('hex');
        const verified = sha256 === current.sha256 && bytes!.length === current.size;
        if (!verified) throw new SimulationError('model', new Error(`the model download does not match the manifest (sha256 ${sha256})`), summary);
        record({ step: 'model', model_version: current.model_version, size: current.size, sha256, verified });
        model = { version: current.model_version };
      }
      const modelVersion = model.version;

      // DEV-4: the model key. An installation the service does not know yet enrolls first (DEV-1);
      // one it knows kept its enrollment across app updates.
      const keyRequest = { installation_id: enrolledAs, model_version: modelVersion, app_version: options.appVersion };
      const announceKnown = () => {
        if (enrolledThisRun || announcedKnown) return;
        announcedKnown = true;
        record({ step: 'enroll', installation_id: enrolledAs, reenrolled: false, enrollments: 0, status: 'enrolled', skipped: true });
      };
      let notEnrolled = false;
      let key = await run('model_key', async () => {
        try {
          const answer = await device.modelKey(keyRequest);
          announceKnown();
          return answer;
        } catch (error) {
          const code = error instanceof ApiCallError ? error.error?.code : undefined;
          if (code === 'installation_not_enrolled' && !enrolledThisRun) {
            notEnrolled = true;
            return null;
          }
          if (code === 'installation_blocked') announceKnown();
          throw error;
        }
      });
      if (notEnrolled) {
        if (!(await enroll())) {
          summaries.push(finish(summary, emit));
          break;
        }
        key = await run('model_key', () => device.modelKey(keyRequest));
      }
      if (!key) {
        summaries.push(finish(summary, emit));
        continue;
      }
      record({ step: 'model_key', model_version: key.model_version });
      const fit = await run('mesh_fit', () => device.meshFit({ installation_id: enrolledAs, model_version: modelVersion }));
      if (!fit) {
        summaries.push(finish(summary, emit));
        continue;
      }
      record({ step: 'mesh_fit', fit_id: fit.fit_id });

      const scanId = deviceId('scn', 16, 'scan', minted.token);
      summary.scan_id = scanId;
      let reports = 0;
      const report = async (status: ScanStatus, occurredAt: string, step: StepName) => {
        const idem = deviceId('idem', 20, 'report', minted.token, (reports += 1));
        // Retries of one event reuse its Idempotency-Key: a replay is answered with the first answer.
        return run(
          step,
          () => device.scanEvent({ installation_id: enrolledAs, scan_id: scanId, status, occurred_at: occurredAt, model_version: modelVersion }, idem),
          REPORT_RETRIES,
        );
      };

      let occurredAt: string;
      if (options.offlineLateMs !== null) {
        // DEV-6: scanned offline, queued on the device; it syncs now with a freshly minted token.
        occurredAt = new Date(now - options.offlineLateMs).toISOString();
        record({ step: 'offline', scan_id: scanId, occurred_at: occurredAt, late_ms: options.offlineLateMs });
        current = 'mint';
        const sync = await mint(options, env, 'sync', record, sleep);
        device.token = sync.token;
        now = sync.now;
      } else {
        occurredAt = new Date(now).toISOString();
        const started = await report('started', occurredAt, 'scan_started');
        if (!started) {
          summaries.push(finish(summary, emit));
          continue;
        }
        record({ step: 'scan_started', scan_id: scanId, occurred_at: occurredAt });
      }

      const reported = await report(options.outcome, occurredAt, 'scan_reported');
      if (!reported) {
        summaries.push(finish(summary, emit));
        continue;
      }
      summary.state = 'recorded';
      summary.occurred_at = reported.body.scan.occurred_at;
      summary.billable = reported.body.scan.billable;
      record({
        step: 'scan_reported',
        scan_id: scanId,
        status: reported.body.scan.status,
        occurred_at: reported.body.scan.occurred_at ?? occurredAt,
        billable: reported.body.scan.billable,
        duplicate: reported.body.duplicate,
        replayed: reported.replayed,
      });
      if (options.duplicateReport) {
        const again = await report(options.outcome, occurredAt, 'duplicate_report');
        if (again) record({ step: 'duplicate_report', scan_id: scanId, duplicate: again.body.duplicate, reports: again.body.scan.reports });
      }

      if (options.outcome === 'completed') {
        const uploads = options.duplicateReport ? 2 : 1;
        for (let u = 0; u < uploads; u += 1) {
          if (uploadsDisabled) {
            // DEV-7: after the service refused an upload, the SDK stops uploading for good.
            summary.result = 'skipped';
            record({ step: 'result_upload', scan_id: scanId, stored: false, duplicate: false, skipped: 'delivery_off' });
            break;
          }
          const uploaded = await run(
            'result_upload',
            () => device.uploadResult(scanId, { installation_id: enrolledAs, result: options.result }),
            options.uploadRetries,
          );
          if (!uploaded) {
            if (summary.refusal?.code === 'results_delivery_disabled') uploadsDisabled = true;
            summary.result = 'refused';
            break;
          }
          if (u === 0) summary.result = uploaded.duplicate ? 'duplicate' : 'stored';
          record({ step: 'result_upload', scan_id: scanId, stored: uploaded.stored, duplicate: uploaded.duplicate });
        }
      }
      summaries.push(finish(summary, emit));
    } catch (error) {
      if (error instanceof SimulationError) throw error;
      throw new SimulationError(current, error, summary);
    }
  }
  return summaries;
}

function finish(summary: ScanSummary, emit: (event: SimEvent) => void): ScanSummary {
  emit({ type: 'scan', summary });
  return summary;
}

/**
 * Mints the session the app would get from its backend. 429 rate_limited is retried after its
 * Retry-After (at most RETRY_AFTER_CAP_MS each, MINT_ATTEMPTS in all). The service's current
 * time is read off expires_at (minted + 15 minutes), so occurred_at follows the emulator clock.
 */
async function mint(
  options: SimulateOptions,
  env: KeyEnv,
  purpose: 'scan' | 'sync',
  record: (step: SimStep) => void,
  sleep: (ms: number) => Promise<void>,
): Promise<{ token: string; now: number }> {
  const scopes: ['scan.create'] | [] | undefined = options.noScope ? [] : undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const session = await mintSession(options.baseUrl, options.secretKey, {
        host_user_ref: options.hostUserRef,
        ...(scopes ? { scopes } : {}),
      }, options.fetch);
      record({ step: 'mint', purpose, env, expires_at: session.expires_at, scopes: scopes ?? ['scan.create'] });
      return { token: session.session_token, now: Date.parse(session.expires_at) - CHOICES.sessionTokenLifetimeMs };
    } catch (error) {
      const limited = error instanceof ApiCallError && error.status === 429 && error.error?.code === 'rate_limited';
      if (!limited || attempt >= MINT_ATTEMPTS) throw error;
      const wait = retryWait(error, attempt);
      record({ step: 'retry', at: 'mint', attempt, wait_ms: wait, reason: error.message });
      await sleep(wait);
    }
  }
}
