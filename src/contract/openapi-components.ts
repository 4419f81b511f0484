import { z } from 'zod';

export type Json = Record<string, unknown>;

/** A JSON object of the document (a schema, a map of properties), or an empty one for anything else. */
export function jsonObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : {};
}

/**
 * Collects component schemas across conversions. Each zod schema is converted on its own (input
 * mode for what clients send, output mode for what they receive); its $defs are hoisted into
 * components/schemas. An id whose JSON differs between conversions gets a suffixed name.
 */
export class Components {
  readonly schemas: Record<string, Json> = {};

  add(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: (ctx) => {
        const s = ctx.jsonSchema as Json;
        // The generated date-time regex adds nothing to format: date-time but noise.
        if (s.format === 'date-time' && typeof s.pattern === 'string') delete s.pattern;
        // zod names its prefix checks as a format no JSON Schema tool knows; the pattern says it.
        if (s.format === 'starts_with' || s.format === 'ends_with' || s.format === 'includes') delete s.format;
        // format: uri admits ftp: and mailto:; the URL's allowed schemes go into a pattern.
        const def: unknown = ctx.zodSchema._zod.def;
        const protocol = def !== null && typeof def === 'object' && 'protocol' in def ? def.protocol : undefined;
        if (s.format === 'uri' && protocol instanceof RegExp) s.pattern = `^(?:${protocol.source.replace(/^\^|\$$/g, '')})://[^\\s/?#]+`;
      },
    }) as Json;
    delete json.$schema;
    const defs = jsonObject(json.$defs);
    delete json.$defs;
    const rename = new Map<string, string>();
    for (const [name, def] of Object.entries(defs)) rename.set(name, this.place(name, jsonObject(def), io));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value && typeof value === 'object') {
        const out: Json = {};
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
            const name = decodeURIComponent(v.slice('#/$defs/'.length));
            out[k] = `#/components/schemas/${rename.get(name) ?? name}`;
          } else out[k] = rewrite(v);
        }
        return out;
      }
      return value;
    };
    for (const name of rename.values()) this.schemas[name] = jsonObject(rewrite(this.schemas[name]));
    return jsonObject(rewrite(json));
  }

  resolve(ref: string): Json {
    const schema = this.schemas[ref.slice('#/components/schemas/'.length)];
    if (!schema) throw new Error(`unresolved ${ref}`);
    return schema;
  }

  private place(name: string, def: Json, io: 'input' | 'output'): string {
    const base = name.startsWith('__schema') ? 'Schema' : name;
    const candidates = [base, `${base}${io === 'input' ? 'Input' : 'Output'}`];
    for (let i = 2; candidates.length < 50; i++) candidates.push(`${base}${i}`);
    const text = JSON.stringify(def);
    for (const candidate of candidates) {
      const existing = this.schemas[candidate];
      if (existing === undefined) {
        this.schemas[candidate] = def;
        return candidate;
      }
      // Compare before $ref rewriting of the new one: existing refs are already rewritten, so
      // compare through a normalised form.
      if (JSON.stringify(existing).replaceAll('#/components/schemas/', '#/$defs/') === text) return candidate;
    }
    throw new Error(`too many different schemas named ${name}`);
  }
}
