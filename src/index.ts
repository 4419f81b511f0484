/**
 * The package's library surface: what a customer's own server can import.
 * `verifySignature` checks a delivery's Service-Signature over the raw body bytes.
 */
export { verifySignature, signPayload, SignatureVerificationError } from './webhooks/signature.js';
