import { ERROR_CODES, errorTypeForStatus, type ErrorBody, type ErrorCode } from './errors.js';
import type { Json } from './openapi-components.js';
import type { Operation } from './operation.js';
import { originCheckExempt } from './origin.js';

/** The error answers of the OpenAPI document: which codes an operation can answer, with examples and headers. */

/** Codes that follow from an operation's shape, so that each table entry lists only its own. */
function derivedErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = ['host_not_allowed'];
  if (!originCheckExempt(op.path)) codes.push('origin_not_allowed');
  if (op.request)
    codes.push('parameter_missing', 'parameter_invalid', 'parameter_unknown', 'invalid_json', 'unsupported_media_type', 'body_too_large');
  else if (op.method !== 'get') codes.push('unsupported_media_type', 'body_not_allowed');
  // CHOICE-14: every route refuses query parameters it does not declare.
  codes.push('parameter_invalid', 'parameter_unknown');
  if (op.query) codes.push('parameter_missing');
  if (op.security === 'secretKey') codes.push('invalid_api_key', 'rate_limited');
  if (op.security === 'portalCookie') codes.push('portal_login_required');
  // CHOICE-35, CHOICE-36: any route may meet a storage condition or a stop in progress (but a status
  // the route answers with its own body, as the health check's 503, keeps that body).
  const anywhere: ErrorCode[] = ['storage_full', 'storage_unavailable', 'storage_busy', 'storage_damaged', 'service_stopping'];
  codes.push(...anywhere.filter((code) => !op.responses[ERROR_CODES[code]]));
  return codes;
}

export function operationErrors(op: Operation): ErrorCode[] {
  return [...new Set([...derivedErrors(op), ...(op.errors ?? [])])];
}

/** An example error body per code: what the emulator answers, message aside. */
export function exampleErrorBody(code: ErrorCode, param?: string): ErrorBody {
  const status = ERROR_CODES[code];
  return {
    error: { type: errorTypeForStatus(status), code, message: `(human-readable explanation of ${code})`, ...(param ? { param } : {}) },
  };
}

/** Headers every error answer of a status carries (RFC 9110 challenge on 401; the wait on 429). */
export const ERROR_HEADERS: Record<number, Json> = {
  401: {
    'WWW-Authenticate': {
      required: true,
      description: 'The challenge: Bearer, or for the portal\'s routes Cookie cookie-name="scanctl_portal".',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': {
      required: false,
      description: 'Seconds to wait before retrying (sent with rate_limited).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
  },
};
