import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of the served OpenAPI document: the values a
 * client reading only the document could send. Valid values are generated from the keywords the
 * document uses (and filtered through ajv by the caller); invalid ones are valid ones broken in
 * one place.
 */
export type Json = Record<string, any>;
export type Resolve = (ref: string) => Json;

/** Near the emulator's frozen clock (2026-11-22T10:00:00Z), in the past: what a device reports. */
const DATE_MIN = Date.parse('2026-06-01T00:00:00Z');
const DATE_MAX = Date.parse('2026-11-22T09:59:00Z');

/** Every RFC 3339 spelling of an instant: what `format: date-time` admits. */
const dateTime = fc
  .tuple(fc.integer({ min: DATE_MIN, max: DATE_MAX }), fc.constantFrom('Z', 'z', '+00:00', '+05:30', '-08:00'), fc.boolean(), fc.boolean())
  .map(([ms, zone, lower, fraction]) => {
    const offsetMin = zone.length === 1 ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
    const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, fraction ? 23 : 19);
    const text = `${local}${zone}`;
    return lower ? text.replace('T', 't') : text;
  });

const URLS = ['http://127.0.0.1:4242/hooks', 'https://example.com/webhooks', 'http://localhost:9/h'];

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 40);
  if (schema.format === 'date-time') return dateTime;
  if (schema.format === 'uri') return fc.constantFrom(...URLS);
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => s.length >= min && s.length <= max);
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 40), unit: 'binary' }).filter((s) => /^[^\uD800-\uDFFF]*$/u.test(s));
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : -1e6);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-9) : 1e6);
  if (integer) return fc.integer({ min: Math.ceil(low), max: Math.floor(Math.min(high, Number.MAX_SAFE_INTEGER)) });
  return fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
}

/** Values a field of this name often takes (ids of fixture rows), tried before random ones. */
export type Known = Readonly<Record<string, readonly string[]>>;

/** Values valid for `schema` (mostly: the caller keeps those ajv accepts); `name` is the field's. */
export function validArbitrary(schema: Json, resolve: Resolve, known: Known = {}, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const generated = anyValid(schema, resolve, known, depth);
  const usual = name === undefined ? undefined : known[name];
  return usual ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...usual) }, generated) : generated;
}

function anyValid(schema: Json, resolve: Resolve, known: Known, depth: number): fc.Arbitrary<unknown> {
  if (schema.$ref) return anyValid(resolve(schema.$ref), resolve, known, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: Json) => anyValid(s, resolve, known, depth)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  return fc.oneof(...type.map((t: string) => typedArbitrary(t, schema, resolve, known, depth)));
}

function typedArbitrary(type: string, schema: Json, resolve: Resolve, known: Known, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(anyValid(schema.items ?? {}, resolve, known, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set<string>(schema.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries(properties)) shape[name] = validArbitrary(sub, resolve, known, name, depth + 1);
      const record = fc.record(shape, { requiredKeys: [...required] });
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && depth < 3) {
        const extra = fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          anyValid(schema.additionalProperties, resolve, known, depth + 1),
          { maxKeys: 3 },
        );
        return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
      }
      return record;
    }
  }
}

/** A value of the wrong JSON type for `schema`'s type. */
const wrongTyped = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 5 }), fc.constant([]), fc.constant({}));

/**
 * An object valid for `schema` broken once: a required field dropped, a field nobody declared
 * added, or one field given a value of another type. The caller keeps what ajv refuses.
 */
export function brokenObject(schema: Json, resolve: Resolve, known: Known = {}): fc.Arbitrary<unknown> {
  const target = schema.$ref ? resolve(schema.$ref) : schema;
  const names = Object.keys(target.properties ?? {});
  const required: string[] = target.required ?? [];
  const breakers: Array<fc.Arbitrary<(value: Record<string, unknown>) => unknown>> = [
    fc.constant((value) => ({ ...value, zz_unknown_field: 1 })),
    wrongTyped.map((bad) => () => bad),
  ];
  if (required.length)
    breakers.push(
      fc.constantFrom(...required).map((name) => (value) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== name))),
    );
  if (names.length)
    breakers.push(fc.tuple(fc.constantFrom(...names), wrongTyped).map(([name, bad]) => (value) => ({ ...value, [name]: bad })));
  return fc
    .tuple(validArbitrary(target, resolve, known), fc.oneof(...breakers))
    .map(([value, breakIt]) => breakIt(value as Record<string, unknown>));
}
