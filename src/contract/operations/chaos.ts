import { ChaosSetRequest, Chaos } from '../chaos.js';
import { CONTROL_PREFIX } from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

/** Delivery chaos per app (`scanctl webhook chaos`). */
const APP = { app_id: 'The app, e.g. app_demo.' };

const CHAOS_EXAMPLE = {
  object: 'chaos',
  app_id: 'app_demo',
  enabled: true,
  seed: 7,
  drop: 0,
  duplicate: 0.2,
  delay_ms: null,
  delay_probability: 0,
  reorder: false,
  fail_first: 2,
  fail_status: 500,
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const chaosOperations = byOperationId(
  control({
    method: 'get',
    path: `${CONTROL_PREFIX}/apps/{app_id}/chaos`,
    operationId: 'getChaos',
    summary: "The app's delivery chaos setting",
    description:
      "The app's delivery chaos (drops, duplicates, delays, reordering, forced failures) and its seed; enabled false when none is set.",
    pathParams: APP,
    responses: { 200: { description: 'The setting (enabled false when none).', schema: Chaos, example: CHAOS_EXAMPLE } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'put',
    path: `${CONTROL_PREFIX}/apps/{app_id}/chaos`,
    operationId: 'setChaos',
    summary: "Replace the app's delivery chaos: drop, duplicate, delay, reorder, fail the first N attempts; seeded",
    description:
      'Each verdict comes from a PRNG keyed by (seed, delivery, attempt), never a shared stream: the same seed gives the same verdicts whatever the timing. Without seed, one is picked and returned.',
    rules: ['WH-7', 'WH-8', 'WH-9'],
    pathParams: APP,
    request: { schema: ChaosSetRequest, example: { duplicate: 0.2, fail_first: 2, seed: 7 } },
    responses: { 200: { description: 'The setting.', schema: Chaos, example: CHAOS_EXAMPLE } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'delete',
    path: `${CONTROL_PREFIX}/apps/{app_id}/chaos`,
    operationId: 'clearChaos',
    summary: 'No more delivery chaos for the app',
    description: "Removes the app's delivery chaos: deliveries go out normally from the next attempt on. Takes no body (CHOICE-53).",
    pathParams: APP,
    responses: { 200: { description: 'The (disabled) setting.', schema: Chaos } },
    errors: ['resource_missing'],
  }),
);
