import { OPERATIONS } from '../../src/contract/operations/index.js'; export const n = OPERATIONS.length;
