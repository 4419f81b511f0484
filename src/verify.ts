import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `scanctl/verify`: the webhook signature check for a customer's own server. It imports Node's
 * crypto and nothing else (no scanctl module, no dependency), so a production server can import
 * it without pulling in the emulator. One argument order everywhere: the body first, the secret last.
 */

/** Why a signature was refused: `SignatureVerificationError.reason`. */
export type SignatureFailureReason = 'not_raw_bytes' | 'missing_signature' | 'malformed_signature' | 'mismatch' | 'missing_secret';

export const SIGNATURE_FAILURE_REASONS: readonly SignatureFailureReason[] = [
  'not_raw_bytes',
  'missing_signature',
  'malformed_signature',
  'mismatch',
  'missing_secret',
];

/** The headers of every delivery (WH-4, WH-5, WH-6). Node's `req.headers` has them in lower case. */
export const WEBHOOK_HEADERS = {
  signature: 'Service-Signature',
  eventId: 'Service-Event-Id',
  eventType: 'Service-Event-Type',
} as const;

/** WH-4: hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret. */
export function signPayload(rawBody: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export class SignatureVerificationError extends Error {
  constructor(
    readonly reason: SignatureFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'SignatureVerificationError';
  }
}

/**
 * Verifies a delivery's Service-Signature over the bytes as received, before any parsing.
 * Constant-time; a parsed object is refused with a clear error, because re-serializing changes bytes.
 * Returns true or throws a SignatureVerificationError whose `reason` says why. The secret may be
 * undefined, as `process.env.SCANCTL_WEBHOOK_SECRET` is typed: a missing one throws `missing_secret`.
 */
export function verifySignature(rawBody: string | Uint8Array, signature: string | null | undefined, secret: string | undefined): true {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new SignatureVerificationError('missing_secret', 'No signing secret given: pass the whsec_ secret of the app.');
  }
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new SignatureVerificationError(
      'not_raw_bytes',
      'verifySignature needs the raw request body (a Buffer or string), not a parsed object: re-serialized JSON does not have the signed bytes.',
    );
  }
  if (!signature) throw new SignatureVerificationError('missing_signature', 'The Service-Signature header is missing.');
  const presented = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(presented)) {
    throw new SignatureVerificationError('malformed_signature', 'The Service-Signature header is not 64 hex characters.');
  }
  // Both sides are 64 hex characters here, so the comparison takes the same time whatever they hold.
  if (!timingSafeEqual(Buffer.from(presented), Buffer.from(signPayload(rawBody, secret)))) {
    throw new SignatureVerificationError(
      'mismatch',
      'The signature does not match the body: wrong secret, or the bytes changed after signing.',
    );
  }
  return true;
}
