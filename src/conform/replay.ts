import { randomBytes } from 'node:crypto';
import type { WebFetch } from '../client/node-request.js';
import { realTimer, type WaitTimer } from '../client/wait.js';
import type { CassetteExchange } from '../contract/conformance.js';
import { ConnectionError, describeFetchError } from '../client/http.js';
import { credentialKind, PSEUDONYM } from './redact.js';
import { compareTogether, group, isRecord, parse, type ReplayDifference, type ReplayedAnswer, type ReplayGroup } from './replay-compare.js';
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
  fetch?: WebFetch;
  /** Real time: tests pass one that moves only when slept on or when a request takes time. */
  timer?: WaitTimer;
}

export interface ReplayReport {
  object: 'conform_replay';
  target: string;
  exchanges: number;
  differing: number;
  groups: ReplayGroup[];
}

/**
 * Replays a cassette in order against another target: each pseudonym gets a value of the replay
 * (the key given, a token or challenge the replay's earlier answers gave, a made-up member of the
 * same length), then each answer is compared with the recorded one.
 */
export class CassetteReplay {
  private readonly bindings = new Map<string, string>();
  private readonly run = randomBytes(3).toString('hex');
  private readonly fetchImpl: WebFetch;

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
    let together: InFlightTogether = { until: -1, answers: [] };
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
      // A request that arrived while others were in flight joins them; otherwise those are compared now.
      if (recorded.answered_ms === undefined || recorded.at_ms >= together.until) {
        differences.push(...compareTogether(together.answers));
        together = { until: -1, answers: [] };
      }
      together.answers.push({ recorded, recordedBody, response, replayedBody });
      together.until = recorded.answered_ms === undefined ? -1 : Math.max(together.until, recorded.answered_ms);
    }
    differences.push(...compareTogether(together.answers));
    return {
      object: 'conform_replay',
      target: this.options.baseUrl,
      exchanges: exchanges.length,
      differing: differences.length,
      groups: group(differences),
    };
  }
}

/** Exchanges of the recording that were in flight together (each arrived before an earlier one was answered). */
interface InFlightTogether {
  /** The latest recorded answer among them: a request that arrived before it was in flight with them. */
  until: number;
  answers: ReplayedAnswer[];
}
