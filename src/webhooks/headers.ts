import { WEBHOOK_HEADERS } from '../contract/webhooks.js';
import { signPayload } from '../verify.js';

/** The User-Agent of the emulator's deliveries. */
export function emulatorUserAgent(version: string): string {
  return `scanctl-emulator/${version}`;
}

export interface DeliveryHeaderFields {
  eventId: string;
  eventType: string;
  /** The Service-Signature value; null leaves the header out. */
  signature: string | null;
  userAgent: string;
}

/** WH-4, WH-5, WH-6: the headers of a delivery request; the only place they are built. */
export function deliveryHeaders(fields: DeliveryHeaderFields): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': fields.userAgent };
  if (fields.signature !== null) headers[WEBHOOK_HEADERS.signature] = fields.signature;
  headers[WEBHOOK_HEADERS.eventId] = fields.eventId;
  headers[WEBHOOK_HEADERS.eventType] = fields.eventType;
  return headers;
}

/** The headers of one event's delivery, signed over its stored bytes: the same on every attempt and resend. */
export function signedDeliveryHeaders(
  // The payload as stored, or its UTF-8 bytes (the dispatcher signs the buffer it sends).
  event: { event_id: string; event_type: string; payload: string | Uint8Array },
  secret: string | null,
  userAgent: string,
): Record<string, string> {
  return deliveryHeaders({
    eventId: event.event_id,
    eventType: event.event_type,
    signature: secret === null ? null : signPayload(event.payload, secret),
    userAgent,
  });
}
