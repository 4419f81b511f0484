import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO, portalCookie, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { brokenObject, validArbitrary, type Json } from '../../helpers/schema-arbitrary.js';
import { mint, MODEL } from '../../helpers/device.js';

/**
 * The fuzzer a customer's QA team would run, in the project's own stack: for every operation of
 * the SERVED document, requests generated from the document's own schemas. A valid request is never
 * refused for its shape; an invalid one gets a 4xx with the error body; every answer matches the
 * document (status listed, content type, body schema, headers), checked with ajv. A fixed seed and a
 * few runs per operation in `npm test`; `npm run fuzz` runs many more (FUZZ_RUNS, FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOC_ID = 'https://scanctl.local/openapi.json';

/** Answers that refuse a request for its shape (CHOICE-3), as opposed to its meaning or the state. */
const SHAPE_CODES = new Set(['parameter_missing', 'parameter_invalid', 'parameter_unknown', 'invalid_json', 'unsupported_media_type']);

/**
 * parameter_invalid that is about a value's meaning, which no schema can say: the emulator's
 * documented limits (CHOICE-7 clock skew, a clock that only moves forward, durations of at most
 * 100 years, a state file from another schema version).
 */
const MEANING: Record<string, string[]> = {
  advanceClock: ['duration'],
  setClock: ['time'],
  importState: ['*'],
  getFixtureKeys: ['*'],
  // The model must be one GET /v1/models lists: data, not shape.
  reportScanEvent: ['model_version'],
};

const emu0 = testEmulator();
const served = (await (await emu0.app.request('/_scanctl/openapi.json')).json()) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema({ $id: DOC_ID, components: served.components });
const compiled = new Map<string, ValidateFunction>();

/** A validator of a schema of the document ($refs point into its components). */
function validator(schema: Json): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
  let validate = compiled.get(text);
  if (!validate) compiled.set(text, (validate = ajv.compile(JSON.parse(text))));
  return validate;
}
const valid = (schema: Json, value: unknown) => validator(schema)(value) === true;
const resolve = (ref: string): Json => served.components.schemas[ref.slice('#/components/schemas/'.length)];

interface Call {
  path: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

interface Op {
  method: string;
  path: string;
  doc: Json;
}

const OPS: Op[] = Object.entries(served.paths as Record<string, Json>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, doc]) => ({ method, path, doc: doc as Json })),
);

const PATH_VALUES: Record<string, string[]> = {
  app_id: [DEMO.appId, 'app_trial', 'app_nope'],
  account_id: [DEMO.accountId, 'acct_nope'],
  model_version: [MODEL, '0.0.0'],
};

/** Values of fields that name fixture rows, so that valid requests also reach past the lookups. */
const KNOWN: Record<string, string[]> = {
  app_id: PATH_VALUES.app_id!,
  app: PATH_VALUES.app_id!,
  account_id: PATH_VALUES.account_id!,
  model_version: PATH_VALUES.model_version!,
};

const params = (op: Op, where: string): Json[] => (op.doc.parameters ?? []).filter((p: Json) => p.in === where);

/** A request the document says is valid. */
function validCall(op: Op): fc.Arbitrary<Call> {
  const path = Object.fromEntries(
    params(op, 'path').map((p) => [
      p.name,
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...(PATH_VALUES[p.name] ?? ['x_unknown'])) },
        fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/),
      ),
    ]),
  );
  const query = Object.fromEntries(
    params(op, 'query').map((p) => [p.name, validArbitrary(p.schema, resolve, KNOWN, p.name).filter((v) => valid(p.schema, v))]),
  );
  const queryRequired = params(op, 'query')
    .filter((p) => p.required)
    .map((p) => p.name as string);
  const headers = Object.fromEntries(
    params(op, 'header').map((p) => [p.name, validArbitrary(p.schema, resolve, KNOWN, p.name).filter((v) => valid(p.schema, v))]),
  );
  const bodySchema = op.doc.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const body = bodySchema ? validArbitrary(bodySchema, resolve, KNOWN).filter((v) => valid(bodySchema, v)) : fc.constant(undefined);
  return fc.record({
    path: fc.record(path),
    query: fc.record(query, { requiredKeys: queryRequired }),
    headers: fc.record(headers),
    body,
  });
}

/** A request the document says is invalid, broken in one place. */
function invalidCall(op: Op): fc.Arbitrary<Call> | null {
  const bodySchema = op.doc.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const typed = params(op, 'query').filter((p) => p.schema.type === 'integer' || p.schema.enum || p.schema.pattern);
  const breakers: Array<fc.Arbitrary<(call: Call) => Call>> = [
    // An undeclared query parameter (CHOICE-14).
    fc.constant((call: Call) => ({ ...call, query: { ...call.query, zz_unknown: '1' } })),
  ];
  if (bodySchema) {
    breakers.push(
      brokenObject(bodySchema, resolve, KNOWN)
        .filter((v) => !valid(bodySchema, v))
        .map((bad) => (call: Call) => ({ ...call, body: bad })),
    );
    breakers.push(fc.constantFrom('{', '', '[1,', 'null x').map((raw) => (call: Call) => ({ ...call, body: undefined, rawBody: raw })));
    breakers.push(
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded').map((type) => (call: Call) => ({ ...call, contentType: type })),
    );
  }
  if (typed.length) {
    breakers.push(
      fc
        .tuple(fc.constantFrom(...typed), fc.constantFrom('', 'x y', '1.5', '-1', 'zz'))
        .filter(([p, v]) => !valid(p.schema, v) && !(p.schema.type === 'integer' && /^\d+$/.test(v)))
        .map(([p, v]) => (call: Call) => ({ ...call, query: { ...call.query, [p.name]: v } })),
    );
  }
  for (const header of params(op, 'header').filter((p) => p.required)) {
    breakers.push(
      fc.constantFrom('', 'has space', 'é').map((v) => (call: Call) => ({ ...call, headers: { ...call.headers, [header.name]: v } })),
    );
  }
  return fc.tuple(validCall(op), fc.oneof(...breakers)).map(([call, breakIt]) => breakIt(call));
}

async function send(emu: TestEmulator, op: Op, call: Call, auth: Record<string, string>): Promise<Response> {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(call.path[name] ?? 'x'));
  const search = new URLSearchParams(
    Object.entries(call.query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
  const headers: Record<string, string> = { ...auth, ...call.headers };
  const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  if (body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  return emu.app.request(`http://localhost${path}${search ? `?${search}` : ''}`, { method: op.method.toUpperCase(), headers, body });
}

/** Why an answer does not match the document (null when it does), and its JSON body when it has one. */
async function check(op: Op, res: Response): Promise<{ problem: string | null; json?: any }> {
  const problem = await nonConformance(op, res);
  return typeof problem === 'object' && problem !== null ? problem : { problem };
}

async function nonConformance(op: Op, res: Response): Promise<string | null | { problem: string | null; json: any }> {
  const where = `${op.method.toUpperCase()} ${op.path} ${res.status}`;
  const declared = op.doc.responses[String(res.status)] as Json | undefined;
  if (!declared) return `${where}: status not listed (${(await res.text()).slice(0, 200)})`;
  for (const [name, header] of Object.entries((declared.headers ?? {}) as Record<string, Json>)) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) return `${where}: required header ${name} missing`;
    } else if (header.schema && !valid(header.schema, value)) return `${where}: header ${name}: ${value}`;
  }
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!declared.content) {
    const text = await res.text();
    return text === '' ? null : `${where}: a body where none is documented`;
  }
  const media = declared.content[contentType] as Json | undefined;
  if (!media) return `${where}: content type ${contentType} not documented (${Object.keys(declared.content).join(', ')})`;
  if (contentType !== 'application/json') {
    await res.body?.cancel();
    return null;
  }
  const body = await res.json();
  const validate = validator(media.schema);
  return {
    problem: validate(body)
      ? null
      : `${where}: body does not match: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`,
    json: body,
  };
}

async function authFor(emu: TestEmulator, op: Op): Promise<Record<string, string>> {
  const scheme = Object.keys(op.doc.security?.[0] ?? {})[0];
  if (scheme === 'secretKey') return { authorization: `Bearer ${DEMO.testSecret}` };
  if (scheme === 'sessionToken') return { authorization: `Bearer ${await mint(emu)}` };
  if (scheme === 'portalCookie') return { cookie: await portalCookie(emu) };
  return {};
}

/** Operations that answered a valid request with a success: the generator reaches past validation. */
const succeeded = new Set<string>();

describe('the served OpenAPI document, fuzzed from its own schemas (ERR-1, ERR-2)', () => {
  it('covers every operation of the document', () => {
    expect(OPS.length).toBeGreaterThan(40);
  });

  for (const op of OPS) {
    it(`ERR-1, ERR-2: ${op.method.toUpperCase()} ${op.path}: valid requests are not refused for their shape, invalid ones get a 4xx error body, every answer matches the document`, async () => {
      const emu = testEmulator();
      const meaning = MEANING[op.doc.operationId] ?? [];
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(validCall(op), async (call) => {
          const res = await send(emu, op, call, await authFor(emu, op));
          const { problem, json } = await check(op, res);
          if (problem) problems.push(problem);
          if (res.status < 300) succeeded.add(`${op.method} ${op.path}`);
          if ((res.status === 400 || res.status === 415) && json?.error) {
            const error = json.error as { code: string; param?: string };
            const allowed = error.code === 'parameter_invalid' && (meaning.includes('*') || meaning.includes(error.param ?? ''));
            if (SHAPE_CODES.has(error.code) && !allowed)
              problems.push(
                `${op.method.toUpperCase()} ${op.path}: a valid request refused: ${JSON.stringify(error)} for ${JSON.stringify(call).slice(0, 300)}`,
              );
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      const invalid = invalidCall(op);
      if (invalid) {
        await fc.assert(
          fc.asyncProperty(invalid, async (call) => {
            const res = await send(emu, op, call, await authFor(emu, op));
            const { problem } = await check(op, res);
            if (problem) problems.push(problem);
            if (res.status < 400 || res.status > 499)
              problems.push(
                `${op.method.toUpperCase()} ${op.path}: an invalid request answered ${res.status}: ${JSON.stringify(call).slice(0, 300)}`,
              );
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      }
      expect([...new Set(problems)].slice(0, 5)).toEqual([]);
    });
  }

  it('ERR-2: valid requests reach past validation: most operations answered one with a success', () => {
    if (process.env.FUZZ_DEBUG)
      console.log(OPS.filter((op) => !succeeded.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`));
    expect(succeeded.size).toBeGreaterThanOrEqual(Math.floor(OPS.length * 0.6));
  });
});
