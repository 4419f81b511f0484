import { fillPath, type BodyInput, type Operation, type PathParams, type QueryInput, type Result } from '../contract/operation.js';
import { z } from 'zod';
import { parseJson } from '../contract/parse-json.js';
import { ApiCallError, ConnectionError, ContractError, describeFetchError } from './http.js';
import { readErrorBody } from './read-error-body.js';
import type { FetchLike, HttpAnswer } from './node-request.js';
import { readServerSentEvents, type ServerSentEvent } from './sse.js';
import { errorMessage } from '../util/caught.js';

/** What an operation without a body schema may answer. */
const NO_SCHEMA = z.unknown();

export type { FetchLike } from './node-request.js';

type ParamsPart<O extends Operation> = keyof PathParams<O> extends never ? { params?: undefined } : { params: PathParams<O> };
type BodyPart<O extends Operation> = O['request'] extends object ? { body: BodyInput<O> } : { body?: undefined };
type QueryPart<O extends Operation> = O['query'] extends object ? { query?: QueryInput<O> } : { query?: undefined };

/** What a call sends besides its path, query and body. */
export interface CallOptions {
  /** Authorization: Bearer <this> (a secret key or a session token). */
  bearer?: string;
  /** A Cookie header (the portal's). */
  cookie?: string;
  headers?: Record<string, string>;
  /** Give up after this many real milliseconds. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type CallInput<O extends Operation> = ParamsPart<O> & BodyPart<O> & QueryPart<O> & CallOptions;
type InputArgs<O extends Operation> = Partial<CallInput<O>> extends CallInput<O> ? [input?: CallInput<O>] : [input: CallInput<O>];

/**
 * The one typed client of every operation, against the real service or the emulator alike:
 * `api.call(OPS.createSession, { bearer: key, body: { host_user_ref } })`. The path, method and
 * schemas come from the operation's declaration; what comes back is validated against it.
 */
export class ApiClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly fetchImpl: FetchLike = (input, init) => fetch(input, init),
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Calls a JSON operation: its success, validated, or ApiCallError / ConnectionError / ContractError. */
  async call<O extends Operation>(op: O, ...args: InputArgs<O>): Promise<Result<O>> {
    const response = await this.send(op, ...args);
    const declared = op.responses[response.status];
    const text = await response.text();
    if (!declared) throw new ContractError(op, response.status, `status ${response.status} is not one the operation declares`);
    // An operation that declares no body schema answers with no body (204 and the like).
    const parsed = text || declared.schema ? parseJson(declared.schema ?? NO_SCHEMA, text) : { ok: true as const, value: undefined };
    if (!parsed.ok) throw new ContractError(op, response.status, parsed.stage === 'json' ? 'the body is not JSON' : parsed.message);
    // The body was checked against the schema of this very status: Result<O> is that schema's type.
    const result = { status: response.status, headers: response.headers, body: parsed.value };
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the body was parsed by this status's own schema; TypeScript cannot tie a runtime status to O's response map
    return result as Result<O>;
  }

  /** Sends an operation's request and returns the raw successful answer (bytes, a stream). */
  async send<O extends Operation>(op: O, ...[input]: InputArgs<O>): Promise<HttpAnswer> {
    const call = (input ?? {}) as CallOptions & { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
    const url = new URL(`${this.baseUrl}${fillPath(op.path, call.params)}`);
    for (const [name, value] of Object.entries(call.query ?? {}))
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.bearer !== undefined) headers.authorization = `Bearer ${call.bearer}`;
    if (call.cookie !== undefined) headers.cookie = call.cookie;
    if (call.body !== undefined) headers['content-type'] = op.request?.contentType ?? 'application/json';
    const signals = [call.signal, call.timeoutMs ? AbortSignal.timeout(call.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let response: HttpAnswer;
    try {
      response = await this.fetchImpl(url.toString(), {
        method: op.method.toUpperCase(),
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        redirect: 'manual',
        signal: signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals),
      });
    } catch (error) {
      throw new ConnectionError(this.baseUrl, describeFetchError(error));
    }
    // A status the operation declares is an answer (the health check's 503), not an error.
    if (response.status >= 300 && !op.responses[response.status])
      throw new ApiCallError(response.status, await readErrorBody(response), op.method.toUpperCase(), url.pathname, response.headers);
    return response;
  }

  /**
   * Follows a server-sent event stream until it ends or `signal` aborts; resolves when it ended.
   * `onEvent` gets each event with its data as sent: the caller checks it against the schema of
   * that event (`streamData`). An error thrown by `onEvent` ends the stream with a ConnectionError.
   */
  async stream<O extends Operation>(
    op: O,
    input: CallInput<O> & { signal: AbortSignal },
    onEvent: (event: ServerSentEvent) => void,
  ): Promise<void> {
    const response = await this.send(op, ...([{ ...input, headers: { accept: 'text/event-stream', ...input.headers } }] as InputArgs<O>));
    try {
      await readServerSentEvents(response, onEvent);
    } catch (error) {
      if (!input.signal.aborted) throw new ConnectionError(this.baseUrl, `the stream broke: ${errorMessage(error)}`);
    }
  }
}

/** The data of one stream event checked against its schema; a ContractError names the operation when it does not fit. */
export function streamData<S extends z.ZodType>(op: Operation, event: ServerSentEvent, schema: S): z.output<S> {
  const parsed = parseJson(schema, event.data);
  if (!parsed.ok)
    throw new ContractError(
      op,
      200,
      `the ${event.event} event ${parsed.stage === 'json' ? 'is not JSON' : `does not match its schema (${parsed.message})`}`,
    );
  return parsed.value;
}
