import type { Route } from '../http/implement.js';
import { accountRoutes } from './accounts.js';
import { appRoutes } from './apps.js';
import { backendRoutes } from './backend.js';
import { chaosRoutes } from './chaos.js';
import { checkpointRoutes } from './checkpoints.js';
import { clockRoutes } from './clock.js';
import { deviceRoutes } from './device.js';
import { faultRoutes } from './faults.js';
import { healthRoutes } from './health.js';
import { keyRoutes } from './keys.js';
import { openapiRoutes } from './openapi.js';
import { portalRoutes } from './portal.js';
import { requestLogRoutes } from './request-log.js';
import { scanRoutes } from './scans.js';
import { stateRoutes } from './state.js';
import { webhookRoutes } from './webhooks.js';

/** Every handler, one per declared operation (test/unit/contract/openapi.test.ts checks the two lists agree). */
export const ROUTES: readonly Route[] = [
  ...backendRoutes,
  ...portalRoutes,
  ...deviceRoutes,
  ...healthRoutes,
  ...clockRoutes,
  ...appRoutes,
  ...keyRoutes,
  ...accountRoutes,
  ...scanRoutes,
  ...webhookRoutes,
  ...faultRoutes,
  ...chaosRoutes,
  ...stateRoutes,
  ...checkpointRoutes,
  ...requestLogRoutes,
  ...openapiRoutes,
];
