import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cassetteLine } from '../../../src/conform/record.js';
import { Redactor } from '../../../src/conform/redact.js';

const PREFIXES = ['sk_live_', 'sk_test_', 'pk_live_', 'pk_test_', 'vst_', 'whsec_'] as const;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A secret of any prefix; a signing secret's body may hold + / = _ - as well. */
const secretArb = fc
  .record({ prefix: fc.constantFrom(...PREFIXES), body: fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 16, maxLength: 40 }) })
  .chain(({ prefix, body }) =>
    prefix === 'whsec_'
      ? fc.array(fc.tuple(fc.nat({ max: body.length - 1 }), fc.constantFrom('+', '/', '=', '_', '-')), { maxLength: 3 }).map((inserts) => {
          const chars = [...body];
          for (const [at, c] of inserts) chars.splice(at, 0, c);
          return `${prefix}${chars.join('')}`;
        })
      : fc.constant(`${prefix}${body}`),
  );

const hex = (c: string) => [...Buffer.from(c)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
/** Percent-encoding as a client does it: the characters that mean something in that place always, any other char as `which` says. */
const percent = (text: string, which: (i: number) => boolean, reserved: RegExp) =>
  [...text].map((c, i) => (reserved.test(c) || which(i) ? hex(c) : c)).join('');
const jsonEscape = (text: string, which: (i: number) => boolean) =>
  [...text].map((c, i) => (which(i) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

/** Where in an exchange a secret goes, and how the wire encodes it there. */
const PLACES = [
  'path-segment',
  'query-name',
  'query-value',
  'form-name',
  'form-value',
  'json-key',
  'json-value',
  'json-nested-key',
  'text-body',
  'bearer',
  'basic',
  'idempotency-key',
  'cookie',
  'answer-json-key',
  'answer-json-value',
  'answer-set-cookie',
  'answer-location',
  'answer-text',
] as const;
type Place = (typeof PLACES)[number];
const ENCODINGS = ['raw', 'percent-all', 'percent-some', 'json-escape'] as const;

const placementArb = fc.record({
  secret: secretArb,
  place: fc.constantFrom(...PLACES),
  encoding: fc.constantFrom(...ENCODINGS),
  /** A letter, digit or underscore right before it: no word boundary. */
  before: fc.constantFrom('', 'x', '7', '_', 'a_', '-'),
  after: fc.constantFrom('', '.', ' end', '&'),
  mask: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
});
type Placement = typeof placementArb extends fc.Arbitrary<infer T> ? T : never;

/** The exchange with each secret placed (several per exchange), as record reads it off the wire. */
function build(placements: Placement[]) {
  let path = '/v1/results';
  const query: string[] = ['host_user_ref=member_1'];
  const form: string[] = [];
  const json: Record<string, unknown> = { kept: 'value' };
  const answer: Record<string, unknown> = { deleted: 0 };
  const text: string[] = [];
  const answerText: string[] = [];
  const headers: Array<[string, string]> = [['content-type', 'application/json']];
  const answerHeaders: Array<[string, string]> = [['content-type', 'application/json']];
  for (const p of placements) {
    const some = (i: number) => p.mask[i % 64]!;
    const all = () => true;
    const none = () => false;
    const which = p.encoding === 'percent-all' ? all : p.encoding === 'percent-some' ? some : none;
    const value = `${p.before}${p.secret}`;
    const inUrl = (reserved: RegExp) => percent(value, which, reserved);
    const inJson = p.encoding === 'json-escape' ? jsonEscape(value, some) : p.encoding === 'raw' ? value : inUrl(/[^\w-]/);
    const place: Place = p.place;
    if (place === 'path-segment') path += `/${inUrl(/[/?#%+ ]/)}`;
    else if (place === 'query-name') query.push(`${inUrl(/[&=+#% ]/)}=1`);
    else if (place === 'query-value') query.push(`q=${inUrl(/[&=+#% ]/)}`);
    else if (place === 'form-name') form.push(`${inUrl(/[&=+#% ]/)}=1`);
    else if (place === 'form-value') form.push(`f=${inUrl(/[&=+#% ]/)}`);
    else if (place === 'json-key') json[`«${inJson}»`] = 1;
    else if (place === 'json-value') json[`v${Object.keys(json).length}`] = `«${inJson}»${p.after}`;
    else if (place === 'json-nested-key') json.nested = { [`${inJson}`]: [{ deeper: inJson }] };
    else if (place === 'text-body') text.push(`${inUrl(/%/)}${p.after}`);
    else if (place === 'bearer') headers.push(['Authorization', `Bearer ${p.encoding === 'raw' ? value : inUrl(/%/)}`]);
    else if (place === 'basic') headers.push(['Authorization', `Basic ${Buffer.from(`user:${value}`).toString('base64')}`]);
    else if (place === 'idempotency-key') headers.push(['Idempotency-Key', inUrl(/[%\r\n]/)]);
    else if (place === 'cookie') headers.push(['Cookie', `scanctl_portal=${inUrl(/[;%]/)}; other=1`]);
    else if (place === 'answer-json-key') answer[`${inJson}`] = true;
    else if (place === 'answer-json-value') answer[`a${Object.keys(answer).length}`] = `${inJson}${p.after}`;
    else if (place === 'answer-set-cookie')
      answerHeaders.push(['Set-Cookie', `s${answerHeaders.length}=${inUrl(/[;%]/)}; Path=/; HttpOnly`]);
    else if (place === 'answer-location') answerHeaders.push(['Location', `https://api.example.com/v1/x?next=${inUrl(/[&=+#% ]/)}`]);
    else answerText.push(`${inUrl(/%/)}${p.after}`);
  }
  const asForm = form.length > 0;
  const answerAsText = answerText.length > 0;
  // A JSON body written by hand: the escapes are the test's, not JSON.stringify's.
  const jsonText = `{${Object.entries(json)
    .map(([k, v]) => `"${k}":${typeof v === 'string' ? `"${v}"` : JSON.stringify(v)}`)
    .join(',')}}`;
  let body = jsonText;
  if (asForm) {
    headers[0] = ['content-type', 'application/x-www-form-urlencoded'];
    body = form.join('&');
  } else if (text.length > 0) {
    headers[0] = ['content-type', 'text/plain'];
    body = text.join(' ');
  }
  const answerBody = answerAsText
    ? answerText.join('\n')
    : `{${Object.entries(answer)
        .map(([k, v]) => `"${k}":${typeof v === 'string' ? `"${v}"` : JSON.stringify(v)}`)
        .join(',')}}`;
  if (answerAsText) answerHeaders[0] = ['content-type', 'text/plain'];
  return {
    request: { seq: 1, at: 0, method: 'POST', path: `${path}?${query.join('&')}`, headers, body: Buffer.from(body) },
    answer: { status: 200, headers: answerHeaders, body: Buffer.from(answerBody) },
  };
}

/** The test's own decoders (not the redactor's): every form a reader of the cassette could turn a string into. */
function views(text: string): string[] {
  const out = new Set<string>([text]);
  const queue = [text];
  while (queue.length > 0 && out.size < 64) {
    const view = queue.shift()!;
    const next = [
      view.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      view.replace(/\+/g, ' '),
      view.replace(/\\u([0-9A-Fa-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      ...[...view.matchAll(/[A-Za-z0-9+/]{8,}={0,2}/g)].map(([t]) => Buffer.from(t, 'base64').toString('latin1')),
    ];
    for (const v of next)
      if (!out.has(v)) {
        out.add(v);
        queue.push(v);
      }
  }
  return [...out];
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** Where the secret's random part (after its prefix) shows in the line, in any form. */
function found(line: string, secret: string): boolean {
  const body = secret.replace(/^(?:[sp]k_(?:live|test)|vst|whsec)_/, '');
  const all = [line, ...strings(JSON.parse(line))].flatMap(views);
  // Its random part, and the run of letters and digits in it (a sign between them may have been decoded otherwise).
  const needles = [body, ...body.split(/[^A-Za-z0-9]/).filter((part) => part.length >= 12)];
  return all.some((view) => needles.some((needle) => view.includes(needle)));
}

describe('CHOICE-66: no secret reaches a cassette, in any encoding', () => {
  it('CHOICE-66: secrets of every prefix, in random places and encodings of requests and answers, are in no form in the cassette line', () => {
    fc.assert(
      fc.property(fc.array(placementArb, { minLength: 1, maxLength: 6 }), (placements) => {
        const { request, answer } = build(placements);
        const line = JSON.stringify(cassetteLine(new Redactor(), request, answer));
        for (const p of placements)
          expect(found(line, p.secret), `${p.place} ${p.encoding} ${JSON.stringify(p.secret)}\n${line}`).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('CHOICE-66: a JSON object key, a secret right after a letter, digit or underscore, and a percent-encoded or Basic secret, each as one example', () => {
    const secret = 'sk_test_exampleSecretKey0000000001';
    const redact = new Redactor();
    expect(redact.body(JSON.stringify({ [secret]: 1 }))).toBe('{"<sk_test:1>":1}');
    expect(redact.body(JSON.stringify({ note: `key_${secret}` }))).toBe('{"note":"key_<sk_test:1>"}');
    expect(redact.path(`/v1/x?k=${encodeURIComponent(secret).replace(/_/g, '%5F')}`)).toBe('/v1/x?k=<sk_test:1>');
    expect(redact.body(`k=${secret.replace(/_/g, '%5F')}`, 'application/x-www-form-urlencoded')).toBe('k=<sk_test:1>');
    expect(redact.headers({ authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` })).toEqual({
      authorization: 'Basic <authorization:1>',
    });
    expect(redact.body(`{"a":"\\u0073k_test_exampleSecretKey0000000001"}`)).toBe('{"a":"<sk_test:1>"}');
  });

  it('CHOICE-66: each of several Set-Cookie headers is recorded, in order', () => {
    const redact = new Redactor();
    const headers = redact.headers([
      ['set-cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2; HttpOnly'],
      ['content-type', 'application/json'],
    ]);
    expect(headers).toEqual({ 'set-cookie': ['<cookie:1>', '<cookie:2>'], 'content-type': 'application/json' });
  });
});
