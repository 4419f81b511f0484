import { CheckpointCreateRequest, CheckpointCreated, CheckpointDelete, CheckpointList, CheckpointRestore } from '../checkpoints.js';
import { CHOICES } from '../choices.js';
import { CONTROL_PREFIX } from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

/** Checkpoints of the whole state (`scanctl state checkpoint|restore|checkpoints`, CHOICE-45). */
const CHECKPOINTS = `${CONTROL_PREFIX}/state/checkpoints`;
const CHECKPOINT_PARAM = { checkpoint: 'The checkpoint id (cp_...) or its name.' };

export const checkpointOperations = byOperationId(
  control({
    method: 'post',
    path: CHECKPOINTS,
    operationId: 'createCheckpoint',
    summary: 'Keep the whole state (every table, the clock offset, pending deliveries) to restore it later',
    description: `The body is optional. Kept beside the database file (in memory for an in-memory database), at most ${CHOICES.maxCheckpoints} at once (CHOICE-45).`,
    request: { schema: CheckpointCreateRequest, optional: true, example: { name: 'baseline' } },
    responses: { 201: { description: 'The checkpoint.', schema: CheckpointCreated } },
    errors: ['checkpoint_limit_reached'],
  }),
  control({
    method: 'get',
    path: CHECKPOINTS,
    operationId: 'listCheckpoints',
    summary: 'The checkpoints, oldest first',
    description:
      'Each with its id, name, the clock offset a restore puts back and how many rows it holds. Kept beside the database across restarts (CHOICE-45), at most 64.',
    responses: { 200: { description: 'The checkpoints.', schema: CheckpointList } },
  }),
  control({
    method: 'post',
    path: `${CHECKPOINTS}/{checkpoint}/restore`,
    operationId: 'restoreCheckpoint',
    summary: 'Put the whole state back as the checkpoint holds it, in one transaction; the checkpoint stays',
    description:
      'Every table, the clock offset and the pending deliveries; attempts on the wire meanwhile are not recorded. A running `webhook listen` stays attached (CHOICE-30).',
    pathParams: CHECKPOINT_PARAM,
    responses: { 200: { description: 'Restored.', schema: CheckpointRestore } },
    errors: ['resource_missing', 'checkpoint_outdated'],
  }),
  control({
    method: 'delete',
    path: `${CHECKPOINTS}/{checkpoint}`,
    operationId: 'deleteCheckpoint',
    summary: 'Delete one checkpoint',
    description: 'By id or name (CHOICE-46). The state itself is untouched; a deleted checkpoint cannot be restored.',
    pathParams: CHECKPOINT_PARAM,
    responses: { 200: { description: 'Deleted.', schema: CheckpointDelete } },
    errors: ['resource_missing'],
  }),
);
