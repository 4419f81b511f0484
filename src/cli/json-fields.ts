import { z } from 'zod';
import { ClockState } from '../contract/control.js';
import { WebhookDeliveryDetail, WebhookDeliveryList } from '../contract/webhooks.js';
import { WaitResult } from '../contract/wait.js';

/**
 * What a command prints under --json, documented field by field in docs/cli/ from the contract's
 * zod schemas (their `describe` texts): the tables cannot drift from what is parsed and printed.
 */
export interface JsonOutput {
  /** What the table describes, e.g. "With --wait, the last line is a wait result". */
  intro: string;
  schema: z.ZodType;
}

/** By qualified command name. */
export const JSON_OUTPUTS: Readonly<Record<string, JsonOutput>> = {
  'scanctl webhook deliveries': { intro: '`{"object":"list","data":[...]}`, each item a delivery:', schema: WebhookDeliveryList },
  'scanctl webhook delivery': { intro: 'One delivery with its exact request and its attempts:', schema: WebhookDeliveryDetail },
  'scanctl webhook wait': { intro: 'One line, the wait result:', schema: WaitResult },
  'scanctl scan simulate': { intro: 'With `--wait`, the last line is the wait result:', schema: WaitResult },
  'scanctl clock show': { intro: 'One object, the clock:', schema: ClockState },
  'scanctl clock advance': { intro: 'One object, the clock where the move left it:', schema: ClockState },
  'scanctl clock set': { intro: 'One object, the clock where the move left it:', schema: ClockState },
};

export interface FieldRow {
  path: string;
  type: string;
  meaning: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One row per field, nested objects and array items as dotted paths (`attempt_log[].status`). */
export function jsonFieldRows(schema: z.ZodType): FieldRow[] {
  const root = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  const defs = isObject(root.$defs) ? root.$defs : {};
  const rows: FieldRow[] = [];
  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const target = defs[ref.replace('#/$defs/', '')];
    return isObject(target) ? { ...target, ...(typeof node.description === 'string' ? { description: node.description } : {}) } : node;
  };
  const walk = (node: Json, prefix: string): void => {
    const properties = isObject(node.properties) ? node.properties : {};
    for (const [name, value] of Object.entries(properties)) {
      if (!isObject(value)) continue;
      const path = `${prefix}${name}`;
      const field = resolve(value);
      const { type, inner } = describeType(field, resolve);
      rows.push({ path, type, meaning: typeof field.description === 'string' ? field.description : '' });
      if (inner) walk(inner.node, `${path}${inner.suffix}.`);
    }
  };
  walk(resolve(root), '');
  return rows;
}

/** A field's type in words, and the object whose fields follow it (itself, or its array's items). */
function describeType(node: Json, resolve: (node: Json) => Json): { type: string; inner: { node: Json; suffix: string } | null } {
  const options = Array.isArray(node.anyOf) ? node.anyOf.filter(isObject).map(resolve) : null;
  if (options) {
    const kinds = options.map((o) => describeType(o, resolve));
    return { type: kinds.map((k) => k.type).join(' or '), inner: kinds.find((k) => k.inner)?.inner ?? null };
  }
  if (Array.isArray(node.type))
    return { type: node.type.map((t: unknown) => describeType({ ...node, type: t }, resolve).type).join(' or '), inner: null };
  if (node.const !== undefined) return { type: `\`${JSON.stringify(node.const)}\``, inner: null };
  if (Array.isArray(node.enum)) return { type: node.enum.map((v) => `\`${String(v)}\``).join(', '), inner: null };
  if (node.type === 'null') return { type: 'null', inner: null };
  if (node.type === 'string') return { type: node.format === 'date-time' ? 'time (ISO 8601, UTC)' : 'string', inner: null };
  if (node.type === 'integer' || node.type === 'number' || node.type === 'boolean') return { type: String(node.type), inner: null };
  if (node.type === 'array' && isObject(node.items)) {
    const item = resolve(node.items);
    const kind = describeType(item, resolve);
    return {
      type: `array of ${kind.type === 'object' ? 'objects' : kind.type}`,
      inner: kind.type === 'object' ? { node: item, suffix: '[]' } : null,
    };
  }
  if (node.type === 'object') {
    if (isObject(node.properties)) return { type: 'object', inner: { node, suffix: '' } };
    return { type: 'object (name to string)', inner: null };
  }
  return { type: 'any', inner: null };
}

/** The Markdown table of a command's --json output. */
export function jsonFieldTable(output: JsonOutput): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const rows = jsonFieldRows(output.schema).map((r) => `| \`${r.path}\` | ${cell(r.type)} | ${cell(r.meaning)} |`);
  return [output.intro, '', '| Field | Type | Meaning |', '|---|---|---|', ...rows].join('\n');
}
