import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseJson } from '../contract/parse-json.js';
import type { FetchLike } from '../client/api.js';
import { realTimer, type WaitTimer } from '../client/wait.js';
import type { CassetteExchange } from '../contract/conformance.js';
import { OPERATIONS } from '../contract/operations/index.js';
import { ConnectionError, describeFetchError } from '../client/http.js';
import { credentialKind, PSEUDONYM } from './redact.js';
import { headerValues, MAX_PSEUDONYM_LENGTH, ReplayRefused, targetUrl } from './sendable.js';

export interface ReplayOptions {
  baseUrl: string;
  /** Stands for the cassette's first secret key of the same kind. */
  key: string;
  /**
   * Keep the recorded pace (the default): no request goes out sooner after the one before than it
   * arrived after it in the recording, so a rate limit sees no more requests in a second than the
   * recording's did, however slowly the target answers.
   */
  paced: boolean;
  fetch?: FetchLike;
  /** Real time: tests pass one that moves only when slept on or when a request takes time. */
  timer?: WaitTimer;
}

/** Where the target answered one recorded exchange otherwise. */
export interface ReplayDifference {
  seq: number;
  route: string;
  recorded: string;
  replayed: string;
  /** status, code, shape, header:<name> */
  aspects: string[];
}

/** The differences grouped by route and status, the way they are reported. */
export interface ReplayGroup {
  route: string;
  recorded: string;
  replayed: string;
  aspects: string[];
  count: number;
  first_seq: number;
}

export interface ReplayReport {
  object: 'conform_replay';
  target: string;
  exchanges: number;
  differing: number;
  groups: ReplayGroup[];
}

/** The route of a path, as the contract declares it: `PUT /v1/scans/{scan_id}/result`. */
function routeOf(method: string, path: string): string {
  const pathname = path.split('?')[0]!;
  const op = OPERATIONS.find(
    (o) => o.method.toUpperCase() === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
  return `${method} ${op?.path ?? pathname}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The shape of a JSON value: its keys and the types of their values, never the values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (isRecord(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape(value[k])]),
    );
  return value === null ? 'null' : typeof value;
}

const parse = (text: string | null): unknown => {
  if (!text) return null;
  const parsed = parseJson(z.unknown(), text);
  return parsed.ok ? parsed.value : text;
};

const codeOf = (body: unknown) => (isRecord(body) && isRecord(body.error) ? body.error.code : undefined);
const describe = (status: number, body: unknown) =>
  typeof codeOf(body) === 'string' ? `${status} ${String(codeOf(body))}` : String(status);

/** Headers whose difference changes what a client does. */
const MATTERING_HEADERS = ['idempotent-replayed', 'allow', 'location'];
const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim() ?? null;

/**
 * Replays a cassette in order against another target: each pseudonym gets a value of the replay
 * (the key given, a token or challenge the replay's earlier answers gave, a made-up member of the
 * same length), then each answer is compared with the recorded one.
 */
export class CassetteReplay {
  private readonly bindings = new Map<string, string>();
  private readonly run = randomBytes(3).toString('hex');
  private readonly fetchImpl: FetchLike;

  constructor(private readonly options: ReplayOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  private resolve(whole: string, kind: string, n: string, length: string | undefined): string {
    const bound = this.bindings.get(whole);
    if (bound !== undefined) return bound;
    let value: string;
    const size = Math.min(Number(length ?? 20), MAX_PSEUDONYM_LENGTH);
    if (kind === credentialKind(this.options.key) && n === '1') value = this.options.key;
    else if (kind === 'host_user_ref') value = `replay_${this.run}_${n}_`.padEnd(size, 'x').slice(0, size);
    else if (kind === 'cookie') value = `scanctl_portal=replay${this.run}`;
    else value = `${kind}_replay${randomBytes(12).toString('hex')}`;
    this.bindings.set(whole, value);
    return value;
  }

  private substitute(text: string, encode: (value: string) => string = (value) => value): string {
    return text.replace(PSEUDONYM, (whole, kind: string, n: string, length: string | undefined) =>
      encode(this.resolve(whole, kind, n, length)),
    );
  }

  /**
   * One recorded request as the replay sends it: the URL built with the URL API and kept on the
   * target's origin (a value an answer gave is percent-encoded into the path), headers that
   * fetch accepts. Anything else is refused, naming the exchange.
   */
  private request(recorded: CassetteExchange): { url: URL; init: RequestInit } {
    const url = targetUrl(this.options.baseUrl, this.substitute(recorded.path, encodeURIComponent), recorded.seq);
    const headers = new Headers();
    try {
      for (const [name, value] of Object.entries(recorded.request_headers))
        for (const item of headerValues(value)) headers.append(name, this.substitute(item));
    } catch {
      throw new ReplayRefused(recorded.seq, 'a header, once its pseudonyms are replaced, is not one fetch can send');
    }
    const body = recorded.request_body === null ? undefined : this.substitute(recorded.request_body);
    return { url, init: { method: recorded.method, headers, body, redirect: 'manual' } };
  }

  private async send(recorded: CassetteExchange): Promise<Response> {
    const { url, init } = this.request(recorded);
    try {
      return await this.fetchImpl(url, init);
    } catch (error) {
      throw new ConnectionError(this.options.baseUrl, describeFetchError(error));
    }
  }

  /** Whether the request of `recorded` carries the key given. */
  private sentKey(recorded: CassetteExchange): boolean {
    const pseudonym = `<${credentialKind(this.options.key)}:1>`;
    return [recorded.path, recorded.request_body ?? '', ...Object.values(recorded.request_headers).flatMap(headerValues)].some((text) =>
      text.includes(pseudonym),
    );
  }

  /** Learns the replay's values of the pseudonyms a recorded answer holds. */
  private bind(recorded: unknown, replayed: unknown): void {
    if (typeof recorded === 'string' && typeof replayed === 'string') {
      const whole = /^<[a-z_]+:\d+(?::\d+)?>$/.exec(recorded);
      if (whole && !this.bindings.has(recorded)) this.bindings.set(recorded, replayed);
      return;
    }
    if (Array.isArray(recorded) && Array.isArray(replayed)) recorded.forEach((value, i) => this.bind(value, replayed[i]));
    else if (isRecord(recorded) && isRecord(replayed)) for (const [key, value] of Object.entries(recorded)) this.bind(value, replayed[key]);
  }

  async replay(exchanges: readonly CassetteExchange[]): Promise<ReplayReport> {
    const differences: ReplayDifference[] = [];
    const timer = this.options.timer ?? realTimer;
    // In the order they arrived (seq is the order they were answered in). A request that used an
    // earlier answer arrived after it, so each pseudonym is bound before it is needed.
    const ordered = [...exchanges].sort((a, b) => a.at_ms - b.at_ms || a.seq - b.seq);
    let previous: { at_ms: number; sent: number } | undefined;
    for (const recorded of ordered) {
      // The recorded gap to the request before, counted from when that one went out: a target
      // that answers slowly stretches the replay, never packs the requests closer together.
      if (this.options.paced && previous) {
        const wait = previous.sent + (recorded.at_ms - previous.at_ms) - timer.now();
        if (wait > 0) await timer.sleep(wait);
      }
      previous = { at_ms: recorded.at_ms, sent: timer.now() };
      const response = await this.send(recorded);
      const text = await response.text();
      // The key given stands for the recording's: a target that does not know it is an error, not a difference.
      if (response.status === 401 && recorded.status !== 401 && this.sentKey(recorded))
        throw new ReplayRefused(
          null,
          `${this.options.baseUrl} does not know the key given (401 on #${recorded.seq}, recorded ${recorded.status})`,
        );
      const recordedBody = parse(recorded.response_body);
      const replayedBody = parse(text);
      this.bind(recordedBody, replayedBody);
      // Each recorded cookie stands for the one the replay's answer set at the same place.
      const replayCookies = response.headers.getSetCookie();
      headerValues(recorded.response_headers['set-cookie']).forEach((cookie, i) => {
        const replayCookie = replayCookies[i]?.split(';')[0]?.trim();
        if (replayCookie && !this.bindings.has(cookie)) this.bindings.set(cookie, replayCookie);
      });
      const aspects = compare(recorded, recordedBody, response, replayedBody);
      if (aspects.length > 0)
        differences.push({
          seq: recorded.seq,
          route: routeOf(recorded.method, recorded.path),
          recorded: describe(recorded.status, recordedBody),
          replayed: describe(response.status, replayedBody),
          aspects,
        });
    }
    return {
      object: 'conform_replay',
      target: this.options.baseUrl,
      exchanges: exchanges.length,
      differing: differences.length,
      groups: group(differences),
    };
  }
}

function compare(recorded: CassetteExchange, recordedBody: unknown, response: Response, replayedBody: unknown): string[] {
  const aspects: string[] = [];
  if (recorded.status !== response.status) aspects.push('status');
  else if (codeOf(recordedBody) !== codeOf(replayedBody)) aspects.push('code');
  else if (JSON.stringify(shape(recordedBody)) !== JSON.stringify(shape(replayedBody))) aspects.push('shape');
  const recordedHeader = (name: string) => headerValues(recorded.response_headers[name]).join(', ') || null;
  if (mediaType(recordedHeader('content-type') ?? undefined) !== mediaType(response.headers.get('content-type') ?? undefined))
    aspects.push('header:content-type');
  for (const name of MATTERING_HEADERS) if (recordedHeader(name) !== response.headers.get(name)) aspects.push(`header:${name}`);
  return aspects;
}

function group(differences: readonly ReplayDifference[]): ReplayGroup[] {
  const groups = new Map<string, ReplayGroup>();
  for (const d of differences) {
    const id = `${d.route} ${d.recorded} ${d.replayed}`;
    const known = groups.get(id);
    if (known) known.count += 1;
    else groups.set(id, { route: d.route, recorded: d.recorded, replayed: d.replayed, aspects: d.aspects, count: 1, first_seq: d.seq });
  }
  return [...groups.values()];
}
