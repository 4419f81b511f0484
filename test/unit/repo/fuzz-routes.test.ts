import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ErrorBody, type ErrorCode } from '../../../src/contract/errors.js';
import { OPERATIONS } from '../../../src/contract/operations/index.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator } from '../../helpers/emulator.js';
import { nonConformance } from '../../helpers/openapi-conformance.js';
import { fillPath, registeredRoutes } from '../../helpers/routes.js';

/**
 * Hostile input over every route the app registers (new routes are fuzzed without anyone
 * listing them): random methods, path parameters, query strings, headers, content types and
 * bodies, including oversized, deeply nested, duplicate-key, bad UTF-8 and non-JSON ones.
 * Never a 5xx; every error is exactly the spec's error body; the emulator still works afterwards.
 */

/** Names the fault that answered (src/emulator/middleware/faults.ts). */
const FAULT_HEADER = 'Scanctl-Fault';

// The witness: an app and key the fuzz never names, so that a mint with it afterwards must still work.
const WITNESS_KEY = 'sk_test_trialSecretKey0000000000001';

const enc = new TextEncoder();
const OVERSIZED = enc.encode(`{"host_user_ref":"${'a'.repeat(1024 * 1024 + 10)}"}`);
const DEEP_ARRAY = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;

const FIELD_NAMES = [
  'host_user_ref',
  'scopes',
  'webhook_url',
  'results_delivery_enabled',
  'duration',
  'time',
  'env',
  'key_id',
  'daily_session_quota',
  'account_id',
  '__proto__',
  'constructor',
  '',
  'error',
  'installation_id',
  'scan_id',
  'status',
  'url',
  'route',
  'code',
  'count',
];

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    'app_demo',
    'acct_demo',
    'scan.create',
    'test',
    'live',
    '15m',
    '99999999999999999999d',
    '1e400',
    '2030-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '0000-01-01T00:00:00Z',
    'http://127.0.0.1:1/h',
    'javascript:alert(1)',
    'x'.repeat(300),
    '\u0000',
    '\uFEFF',
    '../../etc/passwd',
    '%00',
    'null',
  ),
);

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-1, 0, 1, 2 ** 53, -(2 ** 53), 1e308, 1_000_000_001),
  fc.array(text, { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Objects shaped like the requests the routes expect, with wrong, missing and extra fields. */
const plausibleObject = fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 4 });

const rawJson = fc.oneof(
  plausibleObject.map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  // Duplicate keys: which one wins must not matter for safety.
  fc.tuple(text, text).map(([a, b]) => `{"host_user_ref":${JSON.stringify(a)},"host_user_ref":${JSON.stringify(b)}}`),
  fc.tuple(text, text).map(([a, b]) => `{"env":"test","env":${JSON.stringify(a)},"duration":${JSON.stringify(b)},"duration":"1s"}`),
  fc.constantFrom(
    DEEP_ARRAY,
    DEEP_OBJECT,
    '{',
    '}',
    '[',
    'null',
    'true',
    '""',
    '0',
    '1e999',
    '{"a":1,}',
    "{'a':1}",
    'NaN',
    '\uFEFF{}',
    '{"host_user_ref":"\\ud800"}',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
  ),
  fc.string({ maxLength: 200 }),
);

const body: fc.Arbitrary<Uint8Array | string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: rawJson },
  // Bad UTF-8 inside otherwise plausible JSON, and plain random bytes.
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 64 })
      .map((bytes) => new Uint8Array([...enc.encode('{"host_user_ref":"'), 0xff, 0xc3, 0x28, ...bytes, ...enc.encode('"}')])),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
  { weight: 1, arbitrary: fc.constant(OVERSIZED) },
);

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/JSON;charset="UTF-8"',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
      '*/*',
      '',
    ),
    fc.string({ maxLength: 40 }),
  ),
  { nil: undefined },
);

const token = fc.stringMatching(/^[A-Za-z0-9]{0,40}$/);
const authorization = fc.option(
  fc.oneof(
    fc.constantFrom(
      `Bearer ${DEMO.testSecret}`,
      `Bearer ${DEMO.liveSecret}`,
      `Bearer ${DEMO.testPublishable}`,
      `Bearer ${DEMO.livePublishable}`,
      `bearer  ${DEMO.testSecret} `,
      DEMO.testSecret,
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      `Bearer ${'sk_test_'.padEnd(5000, 'x')}`,
    ),
    fc
      .tuple(fc.constantFrom('sk_test_', 'sk_live_', 'pk_test_', 'pk_live_', 'vst_', 'whsec_', 'sk_', ''), token)
      .map(([p, t]) => `Bearer ${p}${t}`),
    fc.string({ maxLength: 60 }),
  ),
  { nil: undefined },
);

/** Header values a socket could carry: no NUL, CR or LF. */
const headerValue = fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => s.replace(/[\0\r\n]/g, ''));
const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'idempotency-key',
    'cookie',
    'accept',
    'x-forwarded-for',
    'content-encoding',
    'transfer-encoding',
    'origin',
    'service-signature',
  ),
  headerValue,
  { maxKeys: 3 },
);

const rawQuery = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(fc.constantFrom('host_user_ref', 'limit', 'app_id', 'status', 'q', ''), text), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
  fc.constantFrom(
    'host_user_ref=%ZZ',
    'host_user_ref=%C3%28',
    'host_user_ref=%',
    'host_user_ref=a&host_user_ref=b',
    '&&=&',
    'host_user_ref',
    `host_user_ref=${'x'.repeat(5000)}`,
    'host_user_ref=%00',
    'a=b=c',
    '%E0%A4%A',
  ),
);

const pathValue = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('app_nope', 'acct_nope', 'app_trial', '..', '.', 'x'.repeat(2000), ' ') },
);

describe('hostile input on every route', () => {
  it('ERR-1: never a 5xx, every error is exactly the error body, and the emulator still answers correctly afterwards', async () => {
    const emu = testEmulator();
    const routes = registeredRoutes(emu.app);
    expect(routes.length).toBeGreaterThan(10);
    const cookie = await portalCookie(emu);
    const problems = new Set<string>();
    const hit = new Set<string>();
    let requests = 0;

    const request = fc.record({
      route: fc.constantFrom(...routes),
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
      ),
      params: fc.dictionary(
        fc.constantFrom('app_id', 'account_id', 'key_id', 'installation_id', 'scan_id', 'delivery_id', 'id'),
        pathValue.filter((v): v is string => v !== undefined),
        { maxKeys: 2 },
      ),
      rawPath: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '/',
            '/v1',
            '/v1/',
            '/v1/sessions/',
            '/V1/SESSIONS',
            '//v1/sessions',
            '/v1/sessions?',
            '/_scanctl',
            '/_scanctl/',
            '/%2e%2e/v1/sessions',
            '/v1/%ZZ',
            '/_scanctl/apps/%C3%28',
          ),
        },
      ),
      query: rawQuery,
      authorization,
      withCookie: fc.boolean(),
      contentType,
      headers: extraHeaders,
      body,
    });

    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const method = r.method ?? r.route.method;
        let path = r.rawPath ?? fillPath(r.route.openapiPath, r.params);
        // Never name the witness app, so it is the one thing the fuzz cannot have changed.
        path = path.replaceAll('app_trial', 'app_nope').replaceAll('acct_trial', 'acct_nope');
        const url = `http://127.0.0.1${path}${r.query ? `?${r.query}` : ''}`;
        const headers: Record<string, string> = { ...r.headers };
        if (r.authorization !== undefined) headers.authorization = r.authorization;
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        if (r.withCookie) headers.cookie = cookie;
        const hasBody = r.body !== undefined && method !== 'GET' && method !== 'HEAD';
        const t0 = performance.now();
        let response: Response;
        try {
          response = await emu.app.request(url, {
            method,
            headers,
            body: hasBody ? (r.body as NonNullable<RequestInit['body']>) : undefined,
          });
        } catch (error) {
          // A request the Fetch API itself refuses (e.g. a header value it will not carry) never reaches a server.
          if (error instanceof TypeError && !/hono|emulator/i.test(String(error.stack))) return;
          throw error;
        }
        requests++;
        // A live stream (the request log, deliveries) never ends: judge its status and headers only.
        if (/event-stream|ndjson/.test(response.headers.get('content-type') ?? '')) {
          await response.body?.cancel();
          expect(response.status).toBeLessThan(300);
          return;
        }
        const text = await response.text();
        // A fault the fuzz itself injected through /_scanctl/faults answers with the status it asked for.
        const injected = response.headers.has(FAULT_HEADER);
        // A status the operation declares as an answer (the health check's 503 while not ready) is judged by the document below;
        // HEAD answers as its GET does.
        const asMethod = method === 'HEAD' ? 'GET' : method;
        const declared =
          r.rawPath === undefined &&
          response.status >= 400 &&
          OPERATIONS.some((op) => op.path === r.route.openapiPath && op.method.toUpperCase() === asMethod && op.responses[response.status]);
        if (!injected && !declared)
          expect(response.status, `${method} ${url} -> ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
        hit.add(`${response.status}`);
        if (process.env.FUZZ_STATS)
          console.log('FUZZ', method, r.route.openapiPath, response.status, Math.round(performance.now() - t0), text.slice(0, 80));
        if (response.status >= 400 && method !== 'HEAD' && !declared) {
          let json: unknown;
          expect(() => (json = JSON.parse(text)), `${method} ${url}: error answer is not JSON: ${text.slice(0, 200)}`).not.toThrow();
          const error = expectErrorBody(json);
          expect(ErrorBody.safeParse(json).success, JSON.stringify(json)).toBe(true);
          expect(response.headers.get('content-type')).toMatch(/^application\/json/);
          if (!injected) expect(response.status, error.code).toBe(ERROR_CODES[error.code as ErrorCode]);
        }
        if (method !== 'HEAD' && r.rawPath === undefined && !injected) {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Non-JSON successes are judged by the document (openapi.json is the only one today).
          }
          const problem = nonConformance(method, new URL(url).pathname, response.status, parsed);
          // Undocumented routes are listed by test/unit/contract/openapi.test.ts; here: documented ones answering off the document.
          if (problem && !problem.endsWith('is not in the OpenAPI document')) problems.add(problem.replace(/: \{.*$/s, ''));
        }
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 600),
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        endOnFailure: false,
      },
    );
    expect(requests).toBeGreaterThan(Number(process.env.FUZZ_RUNS ?? 600) * 0.9);
    // The fuzz must reach past the front door at least sometimes: successes and several error statuses.
    expect([...hit].filter((s) => s.startsWith('2')).length).toBeGreaterThan(0);
    expect(hit.size).toBeGreaterThanOrEqual(5);

    // Every answer the fuzz saw on a documented route is what the OpenAPI document says it can be.
    expect([...problems]).toEqual([]);

    // Faults the fuzz may have injected are lifted the way a developer would, then:
    if (routes.some((r) => r.method === 'DELETE' && r.openapiPath === '/_scanctl/faults')) {
      expect((await emu.call('DELETE', '/_scanctl/faults')).status).toBe(200);
    }
    // Still answering correctly: a normal mint with a key the fuzz never used, and the control plane.
    const minted = await emu.call('POST', '/v1/sessions', { key: WITNESS_KEY, json: { host_user_ref: 'after_fuzz' } });
    expect(minted.status).toBe(201);
    expect(minted.body.session_token).toMatch(/^vst_[A-Za-z0-9]+$/);
    expect(Date.parse(minted.body.expires_at) - emu.clock.now()).toBe(15 * 60_000);
    const info = await emu.call('GET', '/_scanctl/info');
    expect(info.status).toBe(200);
    expect(info.body.apps).toContain('app_trial');
    const deleted = await emu.call('DELETE', '/v1/results?host_user_ref=after_fuzz', { key: WITNESS_KEY });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ host_user_ref: 'after_fuzz', deleted: 0 });
  });
});
