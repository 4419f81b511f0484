import type { Operation, WebhookEvent } from './types.js';

/**
 * Webhooks (issue 4). WEBHOOK_EVENTS: one entry per event type (scan.completed, scan.failed,
 * scan.results_available) with its payload schema from src/contract/webhooks.ts; they appear
 * under the document's `webhooks`. WEBHOOK_OPERATIONS: the control plane routes for deliveries,
 * resend and listeners (tag CONTROL_TAG from ./control.js, security "none").
 */
export const WEBHOOK_EVENTS: WebhookEvent[] = [];
export const WEBHOOK_OPERATIONS: Operation[] = [];
