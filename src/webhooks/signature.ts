import { createHmac } from 'node:crypto';
import { safeEqual } from '../util/crypto.js';

/** WH-4: hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret. */
export function signPayload(secret: string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

export class SignatureVerificationError extends Error {
  constructor(readonly reason: 'not_raw_bytes' | 'missing_signature' | 'malformed_signature' | 'mismatch' | 'missing_secret', message: string) {
    super(message);
    this.name = 'SignatureVerificationError';
  }
}

/**
 * Verifies a delivery's Service-Signature over the bytes as received, before any parsing.
 * Constant-time; a parsed object is refused with a clear error, because re-serializing changes bytes.
 */
export function verifySignature(rawBody: string | Uint8Array, signature: string | null | undefined, secret: string): true {
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
  if (!safeEqual(presented, signPayload(secret, rawBody))) {
    throw new SignatureVerificationError('mismatch', 'The signature does not match the body: wrong secret, or the bytes changed after signing.');
  }
  return true;
}
