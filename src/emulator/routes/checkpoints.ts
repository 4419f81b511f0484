import { OPS } from '../../contract/operations/index.js';
import { implement } from '../http/implement.js';
import { createCheckpoint, deleteCheckpoint, listCheckpointViews, restoreCheckpoint } from '../state/checkpoints.js';

/** Checkpoints of the whole state (`scanctl state checkpoint|restore|checkpoints`, CHOICE-45). */
export const checkpointRoutes = [
  implement(OPS.createCheckpoint)(async ({ ctx, body }) => ({ status: 201, body: await createCheckpoint(ctx, body.name) })),
  implement(OPS.listCheckpoints)(({ ctx }) => ({ status: 200, body: { object: 'list', data: listCheckpointViews(ctx) } })),
  implement(OPS.restoreCheckpoint)(async ({ ctx, params }) => ({ status: 200, body: await restoreCheckpoint(ctx, params.checkpoint) })),
  implement(OPS.deleteCheckpoint)(({ ctx, params }) => ({ status: 200, body: deleteCheckpoint(ctx, params.checkpoint) })),
] as const;
