import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { FAULT_METHODS, FAULT_PATH_PATTERN, type FaultCreateRequest } from '../contract/faults.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../contract/webhooks.js';
import { decimal, fail, wholeNumber, type Parser } from './parse-options.js';

// The parsers of option values whose rules are the contract's: apart from parse-options.ts, so that
// a command with plain options (`clock advance 1h`) loads none of the contract's schemas to parse them.

/**
 * The parser of a flag that fills one field of a request body, derived from the field's schema in
 * the contract: its bounds (and a pattern's message) are the schema's, so the flag and the wire
 * body cannot disagree. A number field takes decimal digits (whole numbers when the schema says
 * int); a string field is checked by the schema itself.
 */
export function fieldOf(field: z.ZodType): Parser<unknown> {
  const inner = unwrap(field);
  if (inner instanceof z.ZodNumber) {
    const min = inner.minValue ?? Number.MIN_SAFE_INTEGER;
    const max = inner.maxValue ?? Number.MAX_SAFE_INTEGER;
    return inner.format?.includes('int') ? wholeNumber(min, max) : decimal(min, max);
  }
  return (value) => {
    const parsed = inner.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    if ((issue.code === 'too_small' || issue.code === 'too_big') && inner instanceof z.ZodString && inner.maxLength !== null)
      return fail(`text of ${inner.minLength ?? 0} to ${inner.maxLength} characters`);
    return fail(issue.message.replace(/^must be /, ''));
  };
}

/** The schema under .optional(), .nullable() and .default(). */
function unwrap(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodOptional || field instanceof z.ZodNullable || field instanceof z.ZodDefault) {
    const inner: unknown = field.unwrap();
    if (inner instanceof z.ZodType) return unwrap(inner);
  }
  return field;
}

/** --events (commander's argParser): a comma-separated list of event types, each one of the three there are. */
export function eventTypes(text: string): WebhookEventType[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !isEventType(n));
  if (names.length === 0 || unknown.length > 0) {
    const what = unknown.length > 0 ? `unknown: ${unknown.map((n) => `"${n}"`).join(', ')}` : 'none given';
    throw new InvalidArgumentError(`Expected comma-separated event types among ${WEBHOOK_EVENT_TYPES.join(', ')} (${what}).`);
  }
  return names.filter(isEventType);
}

const isEventType = (name: string): name is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);
const isFaultMethod = (name: string): name is FaultRoute['method'] => (FAULT_METHODS as readonly string[]).includes(name);

export type FaultRoute = { method: FaultCreateRequest['method']; path: string };

/** --route "POST /v1/sessions", or a bare path for any method: the form, checked while parsing. */
export function parseRoute(route: string): FaultRoute {
  const parts = route.trim().split(/\s+/);
  if (parts.length === 1 && parts[0]!.startsWith('/')) parts.unshift('*');
  if (parts.length !== 2) throw new InvalidArgumentError('Expected "METHOD PATH", e.g. "POST /v1/sessions".');
  const method = parts[0]!.toUpperCase();
  const path = parts[1]!;
  if (!isFaultMethod(method)) throw new InvalidArgumentError(`Unknown method "${parts[0]}" (use ${FAULT_METHODS.join(', ')}).`);
  if (path === '/_scanctl' || path.startsWith('/_scanctl/'))
    throw new InvalidArgumentError("The control plane (/_scanctl) can't be faulted.");
  if (!FAULT_PATH_PATTERN.test(path))
    throw new InvalidArgumentError('Expected a path such as /v1/sessions (":name" matches a segment, a trailing "*" the rest).');
  return { method, path };
}
