import type { CassetteExchange } from '../contract/conformance.js';
import { OPERATIONS } from '../contract/operations/index.js';
import { parseJson } from '../contract/parse-json.js';
import { z } from 'zod';
import { headerValues } from './sendable.js';

/** How `conform replay` compares a replayed answer with the recorded one, and groups what differs. */

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

/** The route of a path, as the contract declares it: `PUT /v1/scans/{scan_id}/result`. */
function routeOf(method: string, path: string): string {
  const pathname = path.split('?')[0]!;
  const op = OPERATIONS.find(
    (o) => o.method.toUpperCase() === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  );
  return `${method} ${op?.path ?? pathname}`;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

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

export const parse = (text: string | null): unknown => {
  if (!text) return null;
  const parsed = parseJson(z.unknown(), text);
  return parsed.ok ? parsed.value : text;
};

const codeOf = (body: unknown) => (isRecord(body) && isRecord(body.error) ? body.error.code : undefined);
const describe = (status: number, body: unknown) =>
  typeof codeOf(body) === 'string' ? `${status} ${String(codeOf(body))}` : String(status);

/** Headers whose difference changes what a client does. */
const MATTERING_HEADERS = ['idempotent-replayed', 'allow', 'location'] as const;
const mediaType = (value: string | undefined) => value?.split(';')[0]?.trim() ?? null;

/** One recorded exchange and what the replay got for its request. */
export interface ReplayedAnswer {
  recorded: CassetteExchange;
  recordedBody: unknown;
  response: Response;
  replayedBody: unknown;
}

/**
 * The differences of exchanges that were in flight together. The recording cannot say in which
 * order the upstream took the same request sent several times at once (SES-10's burst: which of
 * 101 identical DELETEs met the limit depends on the connections, not on when each reached the
 * proxy), so the answers to one request are compared as a set: each replayed answer is first
 * matched with a recorded answer it equals, and only the rest are differences. Different requests
 * are compared one to one, as always.
 */
export function compareTogether(answers: readonly ReplayedAnswer[]): ReplayDifference[] {
  const byRequest = new Map<string, ReplayedAnswer[]>();
  for (const answer of answers) {
    const { method, path, request_headers, request_body } = answer.recorded;
    const request = JSON.stringify([method, path, request_headers, request_body]);
    byRequest.set(request, [...(byRequest.get(request) ?? []), answer]);
  }
  const differences: Array<{ order: number; difference: ReplayDifference }> = [];
  for (const same of byRequest.values()) {
    const paired = new Map<ReplayedAnswer, ReplayedAnswer>();
    const unpaired = new Set(same);
    for (const replayed of same) {
      const equal = [...unpaired].find(
        (recorded) => compare(recorded.recorded, recorded.recordedBody, replayed.response, replayed.replayedBody).length === 0,
      );
      if (equal) {
        paired.set(replayed, equal);
        unpaired.delete(equal);
      }
    }
    const rest = [...unpaired];
    for (const replayed of same) {
      const recorded = paired.get(replayed) ?? rest.shift()!;
      const aspects = compare(recorded.recorded, recorded.recordedBody, replayed.response, replayed.replayedBody);
      if (aspects.length === 0) continue;
      differences.push({
        order: answers.indexOf(recorded),
        difference: {
          seq: recorded.recorded.seq,
          route: routeOf(recorded.recorded.method, recorded.recorded.path),
          recorded: describe(recorded.recorded.status, recorded.recordedBody),
          replayed: describe(replayed.response.status, replayed.replayedBody),
          aspects,
        },
      });
    }
  }
  return differences.sort((a, b) => a.order - b.order).map((d) => d.difference);
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

export function group(differences: readonly ReplayDifference[]): ReplayGroup[] {
  const groups = new Map<string, ReplayGroup>();
  for (const d of differences) {
    const id = `${d.route} ${d.recorded} ${d.replayed}`;
    const known = groups.get(id);
    if (known) known.count += 1;
    else groups.set(id, { route: d.route, recorded: d.recorded, replayed: d.replayed, aspects: d.aspects, count: 1, first_seq: d.seq });
  }
  return [...groups.values()];
}
