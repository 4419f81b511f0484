import type { Operation, WebhookEvent } from '../operation.js';
import { backendOperations } from './backend.js';
import { chaosOperations } from './chaos.js';
import { checkpointOperations } from './checkpoints.js';
import { controlOperations } from './control.js';
import { deviceOperations } from './device.js';
import { faultOperations } from './faults.js';
import { portalOperations } from './portal.js';
import { requestLogOperations } from './request-log.js';
import { scanOperations } from './scans.js';
import { stateOperations } from './state.js';
import { WEBHOOK_EVENTS, webhookOperations } from './webhooks.js';

export { CONTROL_TAG } from './define.js';

/**
 * Every operation, by operationId: the one place a method, path, security, request, query and
 * responses are written. Add a route: one entry in its area's file here, then its handler.
 */
export const OPS = {
  ...backendOperations,
  ...portalOperations,
  ...deviceOperations,
  ...controlOperations,
  ...scanOperations,
  ...webhookOperations,
  ...faultOperations,
  ...chaosOperations,
  ...stateOperations,
  ...checkpointOperations,
  ...requestLogOperations,
};

/** Every documented route, in the order of the document. */
export const OPERATIONS: readonly Operation[] = Object.values(OPS);

export const EVENTS: readonly WebhookEvent[] = WEBHOOK_EVENTS;
