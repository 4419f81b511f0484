import type { z } from 'zod';
import { ApiError } from './errors.js';
import { formatPath, issuePath } from './issue-path.js';
import { validated } from './parse-json.js';

/**
 * CHOICE-3: how an invalid request is answered. A missing field is parameter_missing, a field
 * nobody asked for is parameter_unknown, anything else about a field is parameter_invalid;
 * `param` names the field (nested ones as `scopes[0]`).
 */
export function requestError(issue: z.core.$ZodIssue, input?: unknown): ApiError {
  if (issue.code === 'unrecognized_keys') {
    const param = issuePath(issue);
    return new ApiError('parameter_unknown', `Received unknown parameter: ${param}.`, param);
  }
  const param = formatPath(issue.path);
  if (issue.code === 'invalid_type' && param && isMissing(input, issue.path)) {
    return new ApiError('parameter_missing', `Missing required parameter: ${param}.`, param);
  }
  if (!param) return new ApiError('parameter_invalid', `Invalid request body: ${issue.message}.`);
  return new ApiError('parameter_invalid', `Invalid ${param}: ${lowerFirst(issue.message)}.`, param);
}

/** True when the value at `path` is absent from `input` (zod 4 issues do not carry the input). */
function isMissing(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let value: unknown = input;
  for (const part of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return true;
    value = Reflect.get(value, part);
  }
  return value === undefined;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Validates a parsed request value (a body, a query, a console form) with its schema; a refusal is CHOICE-3's error. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = validated(schema, value);
  if (!parsed.ok) throw requestError(parsed.issues[0]!, value);
  return parsed.value;
}
