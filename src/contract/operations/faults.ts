import { FaultClear, FaultCreateRequest, FaultList, Fault } from '../faults.js';
import { CONTROL_PREFIX } from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

/** API faults (`scanctl faults`): chosen routes answer a chosen error on purpose. */
const FAULT_EXAMPLE = {
  id: 'flt_2iZgRLv1j18YnUUpuDDr',
  object: 'fault',
  method: 'POST',
  path: '/v1/sessions',
  status: 429,
  code: 'rate_limited',
  message: null,
  count: 2,
  remaining: 2,
  probability: null,
  seed: 7,
  matched: 0,
  injected: 0,
  active: true,
  created_at: '2026-11-22T10:00:00.000Z',
};

export const faultOperations = byOperationId(
  control({
    method: 'get',
    path: `${CONTROL_PREFIX}/faults`,
    operationId: 'listFaults',
    summary: 'API faults, oldest first, with how often each matched and fired',
    description:
      'Every API fault (scanctl faults add) in the order they were added, with how many requests each matched and how many it answered with its status.',
    responses: { 200: { description: 'The faults.', schema: FaultList } },
  }),
  control({
    method: 'post',
    path: `${CONTROL_PREFIX}/faults`,
    operationId: 'addFault',
    summary: 'Answer METHOD PATH with a chosen status and code, for the next count calls or with a seeded probability',
    description:
      'The answer is the spec error body with the type of its status (CHOICE-4) and the chosen code, plus a Scanctl-Fault header naming the fault. The control plane can never be faulted.',
    rules: ['ERR-1'],
    request: {
      schema: FaultCreateRequest,
      example: { method: 'POST', path: '/v1/sessions', status: 429, code: 'rate_limited', count: 2, seed: 7 },
    },
    responses: { 201: { description: 'The fault.', schema: Fault, example: FAULT_EXAMPLE } },
  }),
  control({
    method: 'delete',
    path: `${CONTROL_PREFIX}/faults`,
    operationId: 'clearFaults',
    summary: 'Remove every fault',
    description: 'Removes every API fault: requests are answered normally again. Takes no body (CHOICE-53).',
    responses: { 200: { description: 'How many were removed.', schema: FaultClear } },
  }),
  control({
    method: 'delete',
    path: `${CONTROL_PREFIX}/faults/{fault_id}`,
    operationId: 'clearFault',
    summary: 'Remove one fault',
    description: 'Removes one API fault by id. Unknown fault: 404 resource_missing.',
    pathParams: { fault_id: 'The fault, e.g. flt_2iZgRLv1j18YnUUpuDDr.' },
    responses: { 200: { description: 'Removed.', schema: FaultClear } },
    errors: ['resource_missing'],
  }),
);
