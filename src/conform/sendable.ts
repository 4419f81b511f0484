import type { CassetteExchange } from '../contract/conformance.js';

/**
 * Why a cassette line cannot be replayed as it is, found before any request goes out: a replay
 * sends the user's key, so a line that could name another origin, smuggle a header or make
 * fetch throw is refused with its reason (the CLI names the line, exit 2).
 */
export class ReplayRefused extends Error {
  constructor(
    /** The exchange's seq, or null when the refusal is not one line's (the key). */
    readonly seq: number | null,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'ReplayRefused';
  }
}

/** A recorded header's values: one, or each of a repeated header. */
export const headerValues = (value: string | readonly string[] | undefined): string[] =>
  value === undefined ? [] : typeof value === 'string' ? [value] : [...value];

/** RFC 9110 token: a method or a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Methods fetch refuses to send. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** Control characters (CR, LF, NUL, tab...), a space and a backslash: none belongs in an origin-form path. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const NOT_IN_PATH = /[\u0000-\u0020\u007f\\]/;
// eslint-disable-next-line no-control-regex -- the point is to find CR, LF and NUL
const NOT_IN_HEADER_VALUE = /[\r\n\u0000]/;
/**
 * A pseudonym's length (member ids), at most: the spec's host_user_ref is at most 255 characters,
 * and a recording may hold longer ones (a request refused for its length, as a conform probe sends).
 */
export const MAX_PSEUDONYM_LENGTH = 4096;

/** The replay's URL of a recorded path: the URL API against the base URL (its path prefix kept), refused if it leaves the base's origin. */
export function targetUrl(baseUrl: string, path: string, seq: number | null = null): URL {
  const reason = pathProblem(path);
  if (reason) throw new ReplayRefused(seq, reason);
  const base = new URL(baseUrl);
  const url = new URL(`${base.pathname.replace(/\/+$/, '')}${path}`, base.origin);
  if (url.origin !== base.origin) throw new ReplayRefused(seq, `its path would leave ${base.origin} for ${url.origin}`);
  return url;
}

function pathProblem(path: string): string | null {
  if (!path.startsWith('/')) return `its path ${JSON.stringify(path.slice(0, 60))} does not start with /`;
  if (path.startsWith('//')) return `its path ${JSON.stringify(path.slice(0, 60))} starts with //, which names a host`;
  if (NOT_IN_PATH.test(path)) return `its path holds a space, a backslash or a control character (CR, LF...)`;
  return null;
}

/** Why a parsed cassette line cannot be sent against `baseUrl`, or null. Pseudonyms are checked as they will be sent. */
export function unsendable(exchange: CassetteExchange, baseUrl: string): string | null {
  if (!TOKEN.test(exchange.method)) return `its method ${JSON.stringify(exchange.method.slice(0, 20))} is not an HTTP method`;
  if (FORBIDDEN_METHODS.has(exchange.method.toUpperCase())) return `its method ${exchange.method} cannot be sent`;
  if (exchange.request_body !== null && ['GET', 'HEAD'].includes(exchange.method.toUpperCase()))
    return `a ${exchange.method.toUpperCase()} request cannot have a body`;
  try {
    targetUrl(baseUrl, exchange.path);
  } catch (error) {
    if (error instanceof ReplayRefused) return error.reason;
    throw error;
  }
  for (const [name, value] of Object.entries(exchange.request_headers)) {
    if (!TOKEN.test(name)) return `its header name ${JSON.stringify(name.slice(0, 40))} is not a token (a space, CR LF or ":")`;
    if (headerValues(value).some((v) => NOT_IN_HEADER_VALUE.test(v))) return `its header ${name} holds CR, LF or NUL`;
  }
  for (const text of [exchange.path, exchange.request_body ?? '', ...Object.values(exchange.request_headers).flatMap(headerValues)])
    for (const match of text.matchAll(/<[a-z_]+:\d+:(\d+)>/g))
      if (Number(match[1]) > MAX_PSEUDONYM_LENGTH) return `its pseudonym ${match[0]} is longer than ${MAX_PSEUDONYM_LENGTH} characters`;
  return null;
}
