import type { Operation } from './types.js';

/** Extras (issue 6): faults, chaos, state export/import/reset, request log (tag CONTROL_TAG, security "none"). */
export const EXTRA_OPERATIONS: Operation[] = [];
