import { defineOperation, type Operation } from '../operation.js';

export const CONTROL_TAG = 'emulator control plane';

type Untagged = Omit<Operation, 'tag' | 'security'>;

/** An operation of the emulator's own control plane under /_scanctl (CHOICE-8): loopback, no authentication. */
export const controlOperation = <const O extends Untagged>(op: O) =>
  defineOperation({ ...op, tag: CONTROL_TAG, security: 'none' as const });

/** A scan as the device routes and the control plane's scan list show it, for their examples. */
export const SCAN_EXAMPLE = {
  object: 'scan',
  id: 'scn_4fQ2mZ8pL1xR7tYc',
  app_id: 'app_demo',
  installation_id: 'ins_Hk3nV9qW2sB6dJ0e',
  host_user_ref: 'member_123',
  env: 'live',
  status: 'completed',
  model_version: '2026.10.1',
  started_at: '2026-11-22T10:00:00.000Z',
  occurred_at: '2026-11-22T10:01:30.000Z',
  recorded_at: '2026-11-22T10:01:30.000Z',
  billable: true,
  reports: 2,
  result_stored: false,
} as const;
