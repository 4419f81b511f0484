import { z } from 'zod';
import { parseJson } from '../contract/parse-json.js';

/**
 * What a cassette never holds (docs/conformance.md, "What a cassette keeps"): credentials and
 * tokens (by their prefix), the portal's cookie, signatures, challenges and member data. Each
 * distinct secret becomes a numbered pseudonym (`<sk_test:1>`, `<vst:3>`), so a replay can tell
 * them apart and substitute its own; a host_user_ref keeps only its length (`<host_user_ref:2:40>`);
 * a scan result keeps its structure with every value blanked.
 */
const CREDENTIAL = /\b(?:sk_live|sk_test|pk_live|pk_test|vst|whsec)_[A-Za-z0-9+/=_-]+/g;
/** The kind of a credential, from its fixed prefix only (`sk_test`, `vst`): never a part of the secret itself. */
export function credentialKind(secret: string): string {
  return /^(?:[sp]k_(?:live|test)|vst|whsec)/.exec(secret)?.[0] ?? 'secret';
}
/** A pseudonym as written in a cassette: kind, number and, for member ids, the length. */
export const PSEUDONYM = /<([a-z_]+):(\d+)(?::(\d+))?>/g;
const DROPPED_HEADERS = new Set(['service-signature', 'proxy-authorization']);
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);
/** Headers a replay needs to mean the same thing; the rest (dates, lengths, connection) are left out. */
const KEPT_HEADERS = new Set([
  'authorization',
  'content-type',
  'idempotency-key',
  'idempotent-replayed',
  'retry-after',
  'allow',
  'location',
]);
const PSEUDONYMOUS_FIELDS = new Set(['challenge', 'host_user_ref']);
const BLANKED_FIELDS = new Set(['result', 'measurements', 'key', 'webhook_secret']);

/** Every value blanked, the structure kept: numbers 0, strings "<redacted>". */
function blank(value: unknown): unknown {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return '<redacted>';
  if (Array.isArray(value)) return value.map(blank);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v)]));
  return value;
}

/** One recording's redaction: the same secret gets the same pseudonym on every line. */
export class Redactor {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  private pseudonym(kind: string, value: string, withLength = false): string {
    const known = this.names.get(value);
    if (known) return known;
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    const name = `<${kind}:${n}${withLength ? `:${value.length}` : ''}>`;
    this.names.set(value, name);
    return name;
  }

  text(text: string): string {
    return text.replace(CREDENTIAL, (secret) => this.pseudonym(credentialKind(secret), secret));
  }

  headers(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
    const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
    const kept: Record<string, string> = {};
    for (const [name, value] of entries) {
      const lower = name.toLowerCase();
      if (value === undefined || DROPPED_HEADERS.has(lower)) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      // Only the cookie's name=value: its attributes say nothing a replay needs.
      if (COOKIE_HEADERS.has(lower)) kept[lower] = this.pseudonym('cookie', text.split(';')[0]!.trim());
      else if (KEPT_HEADERS.has(lower)) kept[lower] = this.text(text);
    }
    return kept;
  }

  private value(value: unknown, key?: string): unknown {
    if (key !== undefined && BLANKED_FIELDS.has(key)) return blank(value);
    if (key !== undefined && PSEUDONYMOUS_FIELDS.has(key) && typeof value === 'string') return this.pseudonym(key, value, true);
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, k)]));
    return value;
  }

  /** A JSON body with member data and secrets replaced; anything else only has its credentials replaced. */
  body(text: string): string {
    const parsed = parseJson(z.unknown(), text);
    return parsed.ok ? JSON.stringify(this.value(parsed.value)) : this.text(text);
  }

  /** A path and query: a host_user_ref in the query is member data too. */
  path(pathAndQuery: string): string {
    const url = new URL(pathAndQuery, 'http://cassette');
    const ref = url.searchParams.get('host_user_ref');
    const query =
      ref === null ? url.search : url.search.replace(/host_user_ref=[^&]*/, `host_user_ref=${this.pseudonym('host_user_ref', ref, true)}`);
    return this.text(`${url.pathname}${query}`);
  }
}
