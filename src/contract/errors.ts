import { z } from 'zod';

/** ERR-1: the five error types of the spec. */
export const ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'permission_error', 'rate_limit_error', 'api_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ErrorBody = z.lazy(() =>
  z
    .object({
      error: z.object({
        type: z.enum(ERROR_TYPES),
        code: z.string(),
        message: z.string(),
        param: z.string().optional(),
      }),
    })
    .meta({ id: 'ErrorBody', description: 'Every non-2xx answer of the emulator (ERR-1).' }),
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/**
 * CHOICE-4: the error type follows from the status, in this one place.
 * 4xx request problems are invalid_request_error, 401 authentication_error, 403 permission_error,
 * 429 rate_limit_error, 5xx api_error.
 */
export function errorTypeForStatus(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * Every error code the emulator can answer with, and its status. The spec's own codes come
 * first (ERR-2); the rest are the emulator's choices where the spec says "not shown".
 */
export const ERROR_CODES = {
  // The spec's Errors table (ERR-2).
  publishable_key_used: 401,
  key_revoked: 403,
  key_suspended: 403,
  account_suspended: 403,
  insufficient_scope: 403,
  attestation_invalid: 403,
  quota_exceeded: 429,
  // CHOICE-1: unknown, malformed or missing secret key; any unusable key on DELETE /v1/results.
  invalid_api_key: 401,
  // CHOICE-2: plain rate limiting.
  rate_limited: 429,
  // CHOICE-3: invalid requests.
  parameter_missing: 400,
  parameter_invalid: 400,
  parameter_unknown: 400,
  invalid_json: 400,
  idempotency_key_not_accepted: 400,
  idempotency_key_missing: 400,
  idempotency_key_reused: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  // CHOICE-53: a body sent to a route that declares none is refused, never ignored.
  body_not_allowed: 400,
  route_not_found: 404,
  method_not_allowed: 405,
  // CHOICE-16: refused below the router, by the HTTP parser or the adapter.
  request_malformed: 400,
  request_timeout: 408,
  headers_too_large: 431,
  resource_missing: 404,
  // Portal (CHOICE-6) and control plane (CHOICE-8).
  portal_login_required: 401,
  bearer_not_accepted: 401,
  key_exists: 409,
  key_state_conflict: 409,
  live_keys_not_allowed: 403,
  clock_backwards: 400,
  // Device routes (CHOICE-7).
  session_token_invalid: 401,
  session_token_expired: 401,
  secret_key_not_accepted: 401,
  session_token_used: 403,
  challenge_invalid: 403,
  installation_not_enrolled: 403,
  installation_blocked: 403,
  results_delivery_disabled: 403,
  scan_not_completed: 409,
  scan_conflict: 409,
  // Webhook control plane: resend of an event deleted by DELETE /v1/results, or with nowhere to send.
  event_deleted: 409,
  webhook_url_missing: 409,
  // The emulator trusts the loopback user only (docs/security.md): a rebound Host, a cross-site page.
  host_not_allowed: 403,
  origin_not_allowed: 403,
  // Anything unexpected: still the spec's body, never a bare 500 page.
  internal_error: 500,
  // CHOICE-36: storage conditions, each said as itself (src/store/storage-condition.ts); nothing of the request was stored.
  storage_full: 507,
  storage_unavailable: 503,
  storage_busy: 503,
  storage_damaged: 500,
  // CHOICE-45: too many checkpoints kept; a checkpoint taken by a scanctl of another schema version.
  checkpoint_limit_reached: 409,
  checkpoint_outdated: 409,
  // CHOICE-35: serve is stopping; the request was not run (sent with Connection: close).
  service_stopping: 503,
  // The client went away before its request was read (only the request log sees this answer).
  client_closed_request: 499,
  // Injected on purpose by `scanctl faults` with the status the developer chose.
  fault_injected: 503,
} as const satisfies Record<string, number>;
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * RFC 9110 requires a challenge on every 401: the portal's routes ask for their cookie (a scheme
 * of our own, naming it), everything else for a bearer credential.
 */
function challengeFor(code: ErrorCode): string {
  return code === 'portal_login_required' || code === 'bearer_not_accepted' ? 'Cookie cookie-name="scanctl_portal"' : 'Bearer';
}

/** An error answered on the wire as the spec's error body; one onError turns it into JSON. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status ?? ERROR_CODES[code];
    this.type = errorTypeForStatus(this.status);
    this.headers = { ...(this.status === 401 ? { 'WWW-Authenticate': challengeFor(code) } : {}), ...options.headers };
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { type: this.type, code: this.code, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    return { error };
  }
}
