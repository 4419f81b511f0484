import { defineOperation, type Operation } from '../operation.js';

export const CONTROL_TAG = 'emulator control plane';

type Untagged = Omit<Operation, 'tag' | 'security'>;

/** An operation of the emulator's own control plane under /_scanctl (CHOICE-8): loopback, no authentication. */
export const controlOperation = <const O extends Untagged>(op: O) =>
  defineOperation({ ...op, tag: CONTROL_TAG, security: 'none' as const });
