/**
 * The package's library surface: what a customer's own server and its tests import.
 * `scanctl/verify` holds the signature check alone, for production servers (Node built-ins only).
 */
export { verifySignature, signPayload, SignatureVerificationError, WEBHOOK_HEADERS, type SignatureFailureReason } from './verify.js';
