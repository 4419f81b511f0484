import type { Operation } from './types.js';

/**
 * The device routes (issue 3): challenge, enrollment, models, model key, mesh fitting, scan
 * events, result upload (tag "device", security "sessionToken"), and their control plane
 * (/_scanctl/installations..., tag CONTROL_TAG from ./control.js, security "none").
 * One entry per route; test/unit/openapi.test.ts fails for any registered route missing here.
 */
export const DEVICE_OPERATIONS: Operation[] = [];
