import { z } from 'zod';
import { ChaosHold } from '../contract/chaos.js';
import { ScanEventResponse, ScanResult } from '../contract/device.js';
import { parseJson, validated } from '../contract/parse-json.js';
import { SCOPES } from '../contract/sessions.js';
import { WebhookEvent, WebhookEventType } from '../contract/webhooks.js';

/**
 * The database columns that hold JSON text, each with its one schema. A state file fills them from
 * the user's file, so `state import` checks every cell against it, and the table modules of
 * ./tables/ read them through the same schema (readJsonCell), once, handing out the parsed value:
 * what was accepted at import is what a read expects. Two are handed out as text: an event's
 * payload (sent byte for byte, '' once scrubbed) and a stored result (spliced into its event as uploaded).
 * A NULL cell is never parsed (the column says whether it may be NULL).
 */
export const JSON_COLUMNS = {
  sessions: { scopes: z.array(z.enum(SCOPES)) },
  // The answer a scan event replays for a retry with the same Idempotency-Key (DEV-5).
  idempotency_keys: { response: ScanEventResponse },
  results: { body: ScanResult },
  // WH-3: the delivery body, sent as stored (never parsed on the way); '' once scrubbed (DEL-2).
  events: { payload: WebhookEvent },
  deliveries: { chaos_hold: ChaosHold },
  attempts: { request_headers: z.record(z.string(), z.string()) },
  webhook_listeners: { events: z.array(WebhookEventType) },
} as const satisfies Record<string, Record<string, z.ZodType>>;

/** Plain columns a read relies on beyond their SQL type: the status a scan event replays (DEV-5). */
export const VALUE_COLUMNS = {
  idempotency_keys: { status: z.union([z.literal(200), z.literal(201)]) },
} as const satisfies Record<string, Record<string, z.ZodType>>;

/** A scrubbed payload is empty text, not JSON (DEL-2). */
const MAY_BE_EMPTY: ReadonlySet<string> = new Set(['events.payload']);

type Columns = Record<string, Record<string, z.ZodType> | undefined>;

/**
 * Why a state file's cell cannot be stored, or undefined when it can (as far as these schemas go:
 * SQLite's own constraints check the rest): a JSON column takes JSON text its schema accepts.
 */
export function cellProblem(table: string, column: string, cell: unknown): string | undefined {
  const valueSchema = (VALUE_COLUMNS as Columns)[table]?.[column];
  if (valueSchema) {
    const checked = validated(valueSchema, cell);
    return checked.ok ? undefined : `does not match its schema: ${checked.message}`;
  }
  const schema = (JSON_COLUMNS as Columns)[table]?.[column];
  if (!schema || cell === null || (cell === '' && MAY_BE_EMPTY.has(`${table}.${column}`))) return undefined;
  if (typeof cell !== 'string') return 'must be JSON text (a string)';
  const parsed = parseJson(schema, cell);
  if (parsed.ok) return undefined;
  return parsed.stage === 'json' ? `is not JSON (${parsed.message})` : `does not match its schema: ${parsed.message}`;
}

/**
 * A JSON cell read from the database through its column's schema (`JSON_COLUMNS.sessions.scopes`).
 * The import checked it; a cell that still fails was written by something else than the emulator
 * (the database file edited by hand).
 */
export function readJsonCell<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  const parsed = parseJson(schema, text);
  if (!parsed.ok) throw new Error(`a JSON column holds a value its schema refuses (${parsed.message})`);
  return parsed.value;
}

/** readJsonCell of a column that may be NULL: a NULL cell is null. */
export function readNullableJsonCell<S extends z.ZodType>(schema: S, text: string | null): z.output<S> | null {
  return text === null ? null : readJsonCell(schema, text);
}

/** The cell of a value for a JSON column that may be NULL. */
export const nullableJsonText = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

/** A plain cell of VALUE_COLUMNS read through its schema (checked at import, as readJsonCell's). */
export function readValueCell<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const checked = validated(schema, value);
  if (!checked.ok) throw new Error(`a column holds a value its schema refuses (${checked.message})`);
  return checked.value;
}

/**
 * A JSON column in a row schema (../row-statements.ts): text that its column's schema accepts,
 * read as the value the table module hands out.
 */
export function jsonCell<S extends z.ZodType>(schema: S) {
  return z.string().transform((text): z.output<S> => readJsonCell(schema, text));
}
