import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../contract/errors.js';
import { parseJson } from '../../contract/parse-json.js';
import { parseWith, requestError } from '../../contract/request-errors.js';
import type { AppEnv } from './app-env.js';
import { readBodyBytes } from './body-limit.js';

const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset=("?)utf-8\2\s*)?$/i;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON body and validates it with its one schema. Refuses a wrong content type (415),
 * an empty body, bad UTF-8 or malformed JSON (400 invalid_json). The size limit is enforced
 * before this by the body-limit middleware (413).
 */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  const contentType = c.req.header('content-type') ?? '';
  if (!JSON_CONTENT_TYPE.test(contentType.trim())) {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Type must be application/json${contentType ? `, not ${contentType.slice(0, 100)}` : ''}.`,
    );
  }
  const raw = await readBodyBytes(c);
  if (raw.length === 0) throw new ApiError('invalid_json', 'The request body is empty; expected a JSON object.');
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid UTF-8.');
  }
  c.set('jsonText', text);
  const parsed = parseJson(schema, text);
  if (parsed.ok) return parsed.value;
  if (parsed.stage === 'json') throw new ApiError('invalid_json', `The request body is not valid JSON: ${parsed.message.slice(0, 200)}.`);
  throw requestError(parsed.issues[0]!, parsed.input);
}

/** Whether the request carries a body or says what type it would be. */
export function sentBody(c: Context): boolean {
  const length = c.req.header('content-length');
  const hasBody = (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
  return hasBody || c.req.header('content-type') !== undefined;
}

/**
 * A route that takes no body refuses one. Not JSON: 415, so a form post or a text/plain fetch from
 * a web page cannot drive a control route that needs no fields (CHOICE-12). JSON: 400
 * body_not_allowed (CHOICE-53), so a client that sends fields a route does not take learns it
 * instead of seeing them ignored. An empty body, with or without a content type, is no body.
 */
export async function refuseUnexpectedBody(c: Context<AppEnv>): Promise<void> {
  const length = c.req.header('content-length');
  const announced = (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined || c.req.raw.body !== null;
  const contentType = c.req.header('content-type');
  if (!announced && contentType === undefined) return;
  if (contentType !== undefined && !JSON_CONTENT_TYPE.test(contentType.trim())) {
    throw new ApiError(
      'unsupported_media_type',
      `${c.req.method} ${c.req.path} takes no body; send none (not ${contentType.slice(0, 100)}).`,
    );
  }
  if (announced && (await readBodyBytes(c)).length > 0) {
    throw new ApiError('body_not_allowed', `${c.req.method} ${c.req.path} takes no body; send none.`);
  }
}

/** What a route without query parameters accepts: none (CHOICE-14). */
const NO_QUERY = z.strictObject({});

/**
 * CHOICE-14, one rule for every route: a parameter the route does not declare is 400
 * parameter_unknown, a repeated one or one that is not valid percent-encoded UTF-8 is 400
 * parameter_invalid (never echoed as its raw text); the rest goes through the schema.
 */
export function readQuery<S extends z.ZodType>(c: Context, schema: S | undefined): z.infer<S> | undefined {
  const search = new URL(c.req.url).search.slice(1);
  const single = new Map<string, string>();
  for (const part of search ? search.split('&') : []) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? part : part.slice(0, eq), null);
    const value = eq < 0 ? '' : decodeQueryPart(part.slice(eq + 1), name);
    if (single.has(name)) throw new ApiError('parameter_invalid', `Query parameter ${name} was given more than once.`, name);
    single.set(name, value);
  }
  if (!schema) {
    parseWith(NO_QUERY, Object.fromEntries(single));
    return undefined;
  }
  return parseWith(schema, Object.fromEntries(single));
}

function decodeQueryPart(text: string, name: string | null): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    const what = name === null ? 'A query parameter name' : `Query parameter ${name}`;
    throw new ApiError('parameter_invalid', `${what} is not valid percent-encoded UTF-8.`, name ?? undefined);
  }
}
