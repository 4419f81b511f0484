import { BACKEND_OPERATIONS } from './backend.js';
import { CONTROL_OPERATIONS } from './control.js';
import { DEVICE_OPERATIONS } from './device.js';
import { EXTRA_OPERATIONS } from './extras.js';
import { PORTAL_OPERATIONS } from './portal.js';
import type { Operation, WebhookEvent } from './types.js';
import { WEBHOOK_EVENTS, WEBHOOK_OPERATIONS } from './webhooks.js';

export type { Operation, WebhookEvent } from './types.js';
export { CONTROL_TAG } from './control.js';

/** Every documented route, area by area. Add a route: one entry in its area's file. */
export const OPERATIONS: readonly Operation[] = [
  ...BACKEND_OPERATIONS,
  ...PORTAL_OPERATIONS,
  ...DEVICE_OPERATIONS,
  ...CONTROL_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...EXTRA_OPERATIONS,
];

export const EVENTS: readonly WebhookEvent[] = WEBHOOK_EVENTS;
