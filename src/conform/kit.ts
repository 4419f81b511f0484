import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, type CallInput } from '../client/api.js';
import type { ControlClient } from '../client/control.js';
import { ApiCallError, ContractError } from '../client/http.js';
import { readErrorBody } from '../client/read-error-body.js';
import type { EmulatorInfo } from '../contract/control.js';
import type { ErrorBody } from '../contract/errors.js';
import { fillPath, type Operation, type Result } from '../contract/operation.js';
import { OPS } from '../contract/operations/index.js';
import { DeviceClient } from '../sdk/client.js';
import { errorMessage } from '../util/caught.js';
import type { ExchangeLog } from './exchanges.js';
import type { ConformReceiver } from './receiver.js';
import { Divergence } from './probe.js';
import type { Results } from './probes/results.js';
import type { Retry, Scene } from './probes/webhooks.js';

export interface KitOptions {
  baseUrl: string;
  key: string;
  portalCookie?: string;
  receiver?: ConformReceiver;
  /** Scans may be reported (usage on a real account). */
  billable: boolean;
  /** Probes that need time wait in real time where that is short. */
  slow: boolean;
  appId?: string;
  bundleId?: string;
  teamId?: string;
  webhookSecret?: string;
}

/** What an emulator target offers besides its public routes. */
export interface EmulatorSide {
  control: ControlClient;
  info: EmulatorInfo;
}

/** An answer of the target: its status and, for an error, the spec's error body (null when it sent another body). */
export type Answer<O extends Operation> =
  | { ok: true; status: number; result: Result<O>; request: string }
  | { ok: false; status: number; error: ErrorBody['error'] | null; request: string };

/** How an answer reads in a divergence line: `401 invalid_api_key`, `201`. */
export function describeAnswer(answer: { status: number; ok: boolean; error?: ErrorBody['error'] | null }): string {
  if (answer.ok) return String(answer.status);
  return answer.error ? `${answer.status} ${answer.error.code}` : `${answer.status} without the error body`;
}

/** What several probes of one run share, by name: set up by the first probe that asks, once per run. */
export interface KitSetups {
  results: Results;
  webhookScene: Scene;
  webhookRetries: Retry;
}

/** A promise made at the first `get`, the same one after. */
class Once<T> {
  private made: Promise<T> | null = null;

  get(make: () => Promise<T>): Promise<T> {
    return (this.made ??= make());
  }
}

/**
 * What every probe works with: the clients of the target (recorded and paced), the run's prefix
 * for everything it creates, the emulator's control plane when there is one, and the clean-up.
 */
export class ProbeKit {
  readonly api: ApiClient;
  /** Every object this run creates carries it: conform_<8 hex>. */
  readonly prefix = `conform_${randomBytes(4).toString('hex')}`;
  /** host_user_refs used, deleted at the end (DELETE /v1/results). */
  readonly members = new Set<string>();
  private readonly cleanups: Array<() => Promise<unknown>> = [];
  private counter = 0;
  private readonly setups: { [K in keyof KitSetups]: Once<KitSetups[K]> } = {
    results: new Once(),
    webhookScene: new Once(),
    webhookRetries: new Once(),
  };

  constructor(
    readonly options: KitOptions,
    readonly log: ExchangeLog,
    readonly emulator: EmulatorSide | null,
  ) {
    this.api = new ApiClient(options.baseUrl, log.fetch);
  }

  /** A host_user_ref of this run. */
  member(name: string): string {
    const ref = `${this.prefix}_${name}`;
    this.members.add(ref);
    return ref;
  }

  /** A fresh id with the run's prefix (installations, scans, idempotency keys). */
  id(name: string): string {
    this.counter += 1;
    return `${this.prefix}_${name}_${this.counter}`;
  }

  /** What the probes of this run share: `setUp` runs for the first probe that asks; every later one gets its promise. */
  setUpOnce<K extends keyof KitSetups>(name: K, setUp: (kit: ProbeKit) => Promise<KitSetups[K]>): Promise<KitSetups[K]> {
    const once: Once<KitSetups[K]> = this.setups[name];
    return once.get(() => setUp(this));
  }

  /** Runs at the end of the run, last registered first. */
  onCleanup(work: () => Promise<unknown>): void {
    this.cleanups.unshift(work);
  }

  async cleanUp(): Promise<string[]> {
    const problems: string[] = [];
    for (const work of this.cleanups) await work().catch((error: unknown) => problems.push(errorMessage(error)));
    return problems;
  }

  device(token: string): DeviceClient {
    return new DeviceClient(this.options.baseUrl, token, this.log.fetch);
  }

  /** Calls an operation and returns its answer, error or not; a success off its declared shape diverges. */
  async answer<O extends Operation>(op: O, input: CallInput<O>): Promise<Answer<O>> {
    const params = (input as { params?: Record<string, string> }).params;
    const request = `${op.method.toUpperCase()} ${fillPath(op.path, params)}`;
    try {
      // The input is the operation's own CallInput; the client's rest-parameter form wants it as a tuple.
      const result = await (this.api.call as (op: O, input: CallInput<O>) => Promise<Result<O>>)(op, input);
      return { ok: true, status: result.status, result, request };
    } catch (error) {
      if (error instanceof ApiCallError) return { ok: false, status: error.status, error: error.error, request };
      if (error instanceof ContractError) throw new Divergence(request, 'an answer of the declared shape', error.reason);
      throw error;
    }
  }

  /** The answer must be a success; its result. */
  async success<O extends Operation>(op: O, input: CallInput<O>, expected = 'a success'): Promise<Result<O>> {
    const answer = await this.answer(op, input);
    if (!answer.ok) throw new Divergence(answer.request, expected, describeAnswer(answer));
    return answer.result;
  }

  /** The answer must be this error (and code, when given); its error body. */
  async refusal<O extends Operation>(op: O, input: CallInput<O>, status: number, code?: string): Promise<ErrorBody['error']> {
    const answer = await this.answer(op, input);
    const expected = code ? `${status} ${code}` : String(status);
    if (answer.ok || answer.status !== status || !answer.error || (code !== undefined && answer.error.code !== code))
      throw new Divergence(answer.request, expected, describeAnswer(answer));
    return answer.error;
  }

  /**
   * Sends a body the operation's schema refuses, on purpose (the typed client would not build it);
   * the answer must be this error status. Its error body.
   */
  async malformed(op: Operation, bearer: string, body: unknown, status: number): Promise<ErrorBody['error']> {
    const request = `${op.method.toUpperCase()} ${op.path}`;
    const response = await this.log.fetch(`${this.options.baseUrl}${op.path}`, {
      method: op.method.toUpperCase(),
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const error = await readErrorBody(response);
    if (response.status !== status || !error)
      throw new Divergence(request, String(status), describeAnswer({ ok: response.ok, status: response.status, error }));
    return error;
  }

  /** A session token of this run (POST /v1/sessions with the secret key). */
  async mint(member: string, scopes?: Array<'scan.create'>): Promise<string> {
    const body = { host_user_ref: this.member(member), ...(scopes ? { scopes } : {}) };
    const minted = await this.success(OPS.createSession, { bearer: this.options.key, body }, '201 with a session token');
    return minted.body.session_token;
  }

  /** The target's time now: the emulator's clock, else the Date header of an answer. */
  async targetNow(headers: Headers): Promise<number> {
    if (this.emulator) return Date.parse((await this.emulator.control.clock()).now);
    const date = headers.get('date');
    return date ? Date.parse(date) : Date.now();
  }

  /** Lets time pass on the target: the emulator's clock moves; anything else waits in real time. */
  async passTime(ms: number): Promise<void> {
    if (this.emulator) await this.emulator.control.advanceClock(`${Math.ceil(ms / 1000)}s`);
    else await sleep(ms);
  }

  /** The bundle and team identifiers the app's installations attest with. */
  async appIdentity(): Promise<{ appId: string; bundleId: string; teamId: string }> {
    const { bundleId, teamId, appId } = this.options;
    if (bundleId && teamId && appId) return { appId, bundleId, teamId };
    if (!this.emulator) throw new Divergence('the app', 'its bundle and team identifiers', 'none given (--bundle-id, --team-id, --app)');
    const id = appId ?? this.emulator.info.default_app_id;
    if (!id) throw new Divergence('GET /_scanctl/info', 'a default app', 'none');
    const app = await this.emulator.control.app(id);
    return { appId: id, bundleId: bundleId ?? app.bundle_id, teamId: teamId ?? app.team_id };
  }
}
