import { ERROR_CODES, ErrorBody, type ErrorCode } from '../../src/contract/errors.js';
import { operationErrors } from '../../src/contract/openapi-errors.js';
import { OPERATIONS } from '../../src/contract/operations/index.js';
import type { Operation } from '../../src/contract/operation.js';

/** Finds the documented operation of a concrete request path (e.g. /v1/apps/app_demo). */
export function findOperation(method: string, path: string): Operation | undefined {
  const m = method.toLowerCase();
  return OPERATIONS.find((op) => {
    if (op.method !== m) return false;
    const pattern = new RegExp(`^${op.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
}

/** Error codes any route may answer with: they come from the app's shared middleware. */
export const ANYWHERE_ERRORS = new Set<ErrorCode>(['body_too_large', 'method_not_allowed', 'route_not_found']);

/**
 * Says why an answer does not match the document, or null when it does: a success must be a
 * documented status whose schema parses the body; an error must be the error body with a code
 * the operation documents, at that code's status.
 */
export function nonConformance(method: string, path: string, status: number, body: unknown): string | null {
  const op = findOperation(method, path);
  if (!op) return status === 404 || status === 405 ? null : `${method} ${path} is not in the OpenAPI document`;
  // A status the operation declares (a success, or the health check's 503) is judged by its schema.
  if (status < 400 || op.responses[status]) {
    const response = op.responses[status];
    if (!response) return `${op.method.toUpperCase()} ${op.path} answered ${status}, which is not documented`;
    if (!response.schema) return null;
    const parsed = response.schema.safeParse(body);
    return parsed.success
      ? null
      : `${op.method.toUpperCase()} ${op.path} ${status} body does not match its schema: ${parsed.error.message}`;
  }
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success)
    return `${op.method.toUpperCase()} ${op.path} ${status} is not the error body: ${JSON.stringify(body)?.slice(0, 200)}`;
  const code = parsed.data.error.code as ErrorCode;
  if (!(code in ERROR_CODES)) return `unknown error code ${code}`;
  if (code !== 'fault_injected' && ERROR_CODES[code] !== status) return `${code} came with ${status}, not ${ERROR_CODES[code]}`;
  if (!ANYWHERE_ERRORS.has(code) && code !== 'fault_injected' && !operationErrors(op).includes(code)) {
    return `${op.method.toUpperCase()} ${op.path} answered ${status} ${code}, which its operations entry does not list`;
  }
  return null;
}
