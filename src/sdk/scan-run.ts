import { ApiCallError, ConnectionError } from '../client/http.js';
import { mintSession } from '../client/service.js';
import { CHOICES } from '../contract/choices.js';
import type { KeyEnv } from '../contract/credentials.js';
import {
  EXPECTED_REFUSALS,
  type Refusal,
  type ScanSummary,
  type SimEvent,
  type SimStep,
  type SimulateOptions,
  type StepName,
} from './simulate-events.js';
import { errorMessage } from '../util/caught.js';

const RETRY_AFTER_CAP_MS = 10_000;
const MINT_ATTEMPTS = 5;

const isExpected = (error: unknown): error is ApiCallError =>
  error instanceof ApiCallError && (EXPECTED_REFUSALS as readonly string[]).includes(error.error?.code ?? '');
const isTransient = (error: unknown) =>
  error instanceof ConnectionError ||
  (error instanceof ApiCallError && (error.status >= 500 || (error.status === 429 && error.error?.code !== 'quota_exceeded')));

function refusalOf(step: StepName, error: ApiCallError): Refusal {
  return { step, status: error.status, code: error.error?.code ?? '', message: error.error?.message ?? error.message };
}

/** Wait before retry `attempt` (1-based): Retry-After when the service gave one (capped), else 250 ms doubling. */
function retryWait(error: unknown, attempt: number): number {
  const header = error instanceof ApiCallError ? Number(error.headers.get('retry-after')) : NaN;
  if (Number.isFinite(header) && header >= 0) return Math.min(header * 1000, RETRY_AFTER_CAP_MS);
  return Math.min(250 * 2 ** (attempt - 1), 4000);
}

/** One scan of a run: its summary, the steps it records as they happen, and how a step runs. */
export class ScanRun {
  /** The step under way, named by the error when the flow breaks. */
  current: StepName = 'mint';

  constructor(
    readonly summary: ScanSummary,
    private readonly emit: (event: SimEvent) => void,
    readonly sleep: (ms: number) => Promise<void>,
  ) {}

  record(step: SimStep): void {
    this.summary.steps.push(step);
    this.emit({ type: 'step', index: this.summary.index, step });
  }

  /** Runs one step; an expected refusal ends this scan (null), a transient failure is retried, anything else breaks the run. */
  async step<T>(name: StepName, fn: () => Promise<T>, retries = 0): Promise<T | null> {
    this.current = name;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fn();
      } catch (error) {
        if (isExpected(error)) {
          this.summary.refusal = refusalOf(name, error);
          this.record({ step: 'refused', refusal: this.summary.refusal });
          return null;
        }
        if (attempt > retries || !isTransient(error)) throw error;
        const wait = retryWait(error, attempt);
        this.record({ step: 'retry', at: name, attempt, wait_ms: wait, reason: errorMessage(error) });
        await this.sleep(wait);
      }
    }
  }

  /**
   * Mints the session the app would get from its backend. 429 rate_limited is retried after its
   * Retry-After (at most RETRY_AFTER_CAP_MS each, MINT_ATTEMPTS in all). The service's current
   * time is read off expires_at (minted + 15 minutes), so occurred_at follows the emulator clock.
   */
  async mint(options: SimulateOptions, env: KeyEnv, purpose: 'scan' | 'sync'): Promise<{ token: string; now: number }> {
    this.current = 'mint';
    const scopes: ['scan.create'] | [] | undefined = options.noScope ? [] : undefined;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const body = { host_user_ref: options.hostUserRef, ...(scopes ? { scopes } : {}) };
        const session = await mintSession(options.baseUrl, options.secretKey, body, options.fetch);
        this.record({ step: 'mint', purpose, env, expires_at: session.expires_at, scopes: scopes ?? ['scan.create'] });
        return { token: session.session_token, now: Date.parse(session.expires_at) - CHOICES.sessionTokenLifetimeMs };
      } catch (error) {
        const limited = error instanceof ApiCallError && error.status === 429 && error.error?.code === 'rate_limited';
        if (!limited || attempt >= MINT_ATTEMPTS) throw error;
        const wait = retryWait(error, attempt);
        this.record({ step: 'retry', at: 'mint', attempt, wait_ms: wait, reason: error.message });
        await this.sleep(wait);
      }
    }
  }
}
