import { z } from 'zod';
import { parseJson } from '../contract/parse-json.js';
import { CREDENTIAL, decodedViews, hasCredential, hidesCredential } from './wire-decode.js';

/**
 * What a cassette never holds (docs/conformance.md, "What a cassette keeps"): credentials and
 * tokens (by their prefix), the portal's cookie, signatures, challenges and member data. Each
 * distinct secret becomes a numbered pseudonym (`<sk_test:1>`, `<vst:3>`), so a replay can tell
 * them apart and substitute its own; a host_user_ref keeps only its length (`<host_user_ref:2:40>`);
 * a scan result keeps its structure with every value blanked.
 *
 * Secrets are looked for where the wire could hide them (wire-decode.ts): after percent-decoding
 * each path segment, query and form component, after JSON's escapes, in object keys as well as
 * values, and inside base64 (an `Authorization` other than Bearer is replaced whole). A text in
 * which some decoding still shows a secret after its credentials are replaced is replaced whole.
 */
/** The kind of a credential, from its fixed prefix only (`sk_test`, `vst`): never a part of the secret itself. */
export function credentialKind(secret: string): string {
  return /^(?:[sp]k_(?:live|test)|vst|whsec)/.exec(secret)?.[0] ?? 'secret';
}
/** A pseudonym as written in a cassette: kind, number and, for member ids, the length. */
export const PSEUDONYM = /<([a-z_]+):(\d+)(?::(\d+))?>/g;
const DROPPED_HEADERS: ReadonlySet<string> = new Set(['service-signature', 'proxy-authorization']);
const COOKIE_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);
/** Headers a replay needs to mean the same thing; the rest (dates, lengths, connection) are left out. */
const KEPT_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'content-type',
  'idempotency-key',
  'idempotent-replayed',
  'retry-after',
  'allow',
  'location',
]);
const PSEUDONYMOUS_FIELDS: ReadonlySet<string> = new Set(['challenge', 'host_user_ref']);
const BLANKED_FIELDS: ReadonlySet<string> = new Set(['result', 'measurements', 'key', 'webhook_secret']);

/** Every value blanked, the structure kept: numbers 0, strings "<redacted>". */
function blank(value: unknown): unknown {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return '<redacted>';
  if (Array.isArray(value)) return value.map(blank);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v)]));
  return value;
}

/** One header's values, as many as it came with. */
type HeaderValues = Record<string, string | string[] | undefined> | Headers | ReadonlyArray<readonly [string, string]>;

/** Every (name, value) pair, a repeated header once per value (`Set-Cookie` included). */
function headerPairs(headers: HeaderValues): ReadonlyArray<readonly [string, string]> {
  if (headers instanceof Headers) {
    const pairs: Array<[string, string]> = [];
    headers.forEach((value, name) => {
      if (name !== 'set-cookie') pairs.push([name, value]);
    });
    return [...pairs, ...headers.getSetCookie().map((value): [string, string] => ['set-cookie', value])];
  }
  if (isPairList(headers)) return headers;
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (typeof value === 'string' ? [value] : value).map((v): [string, string] => [name, v]),
  );
}

const isPairList = (headers: HeaderValues): headers is ReadonlyArray<readonly [string, string]> => Array.isArray(headers);

/** Percent-encodes `text` around its pseudonyms, which stay as they are for the replay to find. */
function encodeAround(text: string, encode: (part: string) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PSEUDONYM)) {
    out += encode(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + encode(text.slice(last));
}

const formDecode = (text: string) => decodedViews(text, { plusIsSpace: true }).at(-1)!;

/** One recording's redaction: the same secret gets the same pseudonym on every line. */
export class Redactor {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  private pseudonym(kind: string, value: string, withLength = false): string {
    const known = this.names.get(`${kind}\n${value}`);
    if (known) return known;
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    const name = `<${kind}:${n}${withLength ? `:${value.length}` : ''}>`;
    this.names.set(`${kind}\n${value}`, name);
    return name;
  }

  private credentials(text: string): string {
    return text.replace(CREDENTIAL, (secret) => this.pseudonym(credentialKind(secret), secret));
  }

  /**
   * Text of no known encoding: its credentials replaced. Where a decoding of it shows one, the
   * decoded text is kept with its credentials replaced; where even that hides one (base64), the
   * whole text is one pseudonym.
   */
  text(text: string, options: { plusIsSpace?: boolean } = {}): string {
    const views = decodedViews(text, options);
    const decoded = views.length > 1 && hasCredential(views.at(-1)!) ? this.credentials(views.at(-1)!) : this.credentials(text);
    return hidesCredential(decoded) ? this.pseudonym('redacted', text) : decoded;
  }

  /** One component of a path or a form (percent-encoded): kept as it came unless a decoding of it shows a secret. */
  private component(raw: string, plusIsSpace: boolean): string {
    if (!hidesCredential(raw, { plusIsSpace })) return raw;
    const redacted = this.text(decodedViews(raw, { plusIsSpace }).at(-1)!);
    return encodeAround(redacted, encodeURIComponent);
  }

  /** A query or a form body: each name and value looked at decoded; a host_user_ref is member data. */
  private form(text: string): string {
    return text
      .split('&')
      .map((pair) => {
        const at = pair.indexOf('=');
        const name = at < 0 ? pair : pair.slice(0, at);
        if (at < 0) return this.component(name, true);
        const value = pair.slice(at + 1);
        const kept =
          formDecode(name) === 'host_user_ref' ? this.pseudonym('host_user_ref', formDecode(value), true) : this.component(value, true);
        return `${this.component(name, true)}=${kept}`;
      })
      .join('&');
  }

  headers(headers: HeaderValues): Record<string, string | string[]> {
    const kept: Record<string, string[]> = {};
    for (const [name, value] of headerPairs(headers)) {
      const lower = name.toLowerCase();
      if (DROPPED_HEADERS.has(lower) || !(KEPT_HEADERS.has(lower) || COOKIE_HEADERS.has(lower))) continue;
      (kept[lower] ??= []).push(this.headerValue(lower, value));
    }
    return Object.fromEntries(Object.entries(kept).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));
  }

  private headerValue(name: string, value: string): string {
    // Only the cookie's name=value: its attributes say nothing a replay needs.
    if (COOKIE_HEADERS.has(name)) return this.pseudonym('cookie', value.split(';')[0]!.trim());
    if (name === 'authorization') {
      const [, scheme, credentials] = /^(\S+)\s+(.*)$/s.exec(value) ?? [];
      // A Bearer key or token is replaced by its pseudonym; anything else (Basic is base64) is replaced whole.
      if (scheme?.toLowerCase() === 'bearer') {
        const token = this.text(credentials!.trim());
        return `${scheme} ${/^<[a-z_]+:\d+>$/.test(token) ? token : this.pseudonym('bearer', credentials!.trim())}`;
      }
      return scheme ? `${scheme} ${this.pseudonym('authorization', credentials!)}` : this.pseudonym('authorization', value);
    }
    if (name === 'location') return value.startsWith('/') ? this.path(value) : this.url(value);
    return this.text(value);
  }

  private url(text: string): string {
    try {
      const url = new URL(text);
      return `${url.origin}${this.path(url.pathname + url.search)}`;
    } catch {
      return this.text(text);
    }
  }

  private value(value: unknown, key?: string): unknown {
    if (key !== undefined && BLANKED_FIELDS.has(key)) return blank(value);
    if (key !== undefined && PSEUDONYMOUS_FIELDS.has(key) && typeof value === 'string') return this.pseudonym(key, value, true);
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.value(v, k)]));
    return value;
  }

  /**
   * A JSON body with member data and secrets replaced (in keys as in values, its escapes decoded
   * by the parse); a form body component by component; anything else as text.
   */
  body(text: string, contentType?: string): string {
    const parsed = parseJson(z.unknown(), text);
    if (parsed.ok) return JSON.stringify(this.value(parsed.value));
    if (contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded') return this.form(text);
    return this.text(text);
  }

  /** A path and query: each segment and query component looked at decoded, a host_user_ref in the query is member data too. */
  path(pathAndQuery: string): string {
    const at = pathAndQuery.indexOf('?');
    const pathname = at < 0 ? pathAndQuery : pathAndQuery.slice(0, at);
    const segments = pathname
      .split('/')
      .map((segment) => this.component(segment, false))
      .join('/');
    return at < 0 ? segments : `${segments}?${this.form(pathAndQuery.slice(at + 1))}`;
  }
}
