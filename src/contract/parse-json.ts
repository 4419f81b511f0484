import type { z } from 'zod';
import { formatPath } from './issue-path.js';

/**
 * What `parseJson` found: the value, or why not. `json`: the text is not JSON (`message` from the
 * parser, on one line). `schema`: the first issue of the schema (`path` formatted like
 * `apps[0].id`, '' for the whole value), with every issue for a caller that lists them all.
 */
export type ParsedJson<T> = Validated<T> | { ok: false; stage: 'json'; message: string };

/** What `validated` found: the value, or the schema's first issue (and all of them). */
export type Validated<T> =
  | { ok: true; value: T }
  | { ok: false; stage: 'schema'; message: string; path: string; reason: string; issues: z.core.$ZodIssue[]; input: unknown };

/**
 * zod's parse options. `jitless: true` for a value checked once at start (a fixture file): zod then
 * skips the parser it compiles for each object schema on first use, which costs more than one small
 * value saves (the default fixtures, cold: ~8 -> ~3.5 ms). Request bodies keep it: they come again.
 */
type ParseOptions = Pick<z.core.ParseContext<z.core.$ZodIssue>, 'jitless'>;

/**
 * JSON text that crosses a boundary (a request body, an answer, a file, a stream event) checked
 * against its one schema: the one place that does JSON.parse, then safeParse, then the first issue.
 */
export function parseJson<S extends z.ZodType>(schema: S, text: string, options?: ParseOptions): ParsedJson<z.output<S>> {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    // V8 throws RangeError for nesting beyond its own stack, with a message that says nothing useful.
    const message = error instanceof RangeError ? 'nested too deeply' : error instanceof Error ? error.message : String(error);
    return { ok: false, stage: 'json', message: message.replace(/\s+/g, ' ') };
  }
  return validated(schema, input, options);
}

/** The same check for a value already parsed (a stream event's data). */
export function validated<S extends z.ZodType>(schema: S, input: unknown, options?: ParseOptions): Validated<z.output<S>> {
  const parsed = schema.safeParse(input, options);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const path = formatPath(issue.path);
  return {
    ok: false,
    stage: 'schema',
    message: path ? `${path}: ${issue.message}` : issue.message,
    path,
    reason: issue.message,
    issues: parsed.error.issues,
    input,
  };
}
