import { z } from 'zod';
import { listOf } from './list.js';
import { DateTime } from './time.js';

/** Checkpoints of the emulator's whole state (`scanctl state checkpoint|restore`, CHOICE-45). */

/** Every checkpoint id starts with this; a name may not, so `restore NAME|ID` is never ambiguous. */
const CHECKPOINT_ID_PREFIX = 'cp_';

/** CHOICE-46: what a checkpoint may be called: a word a shell and a URL path carry as is. */
const CheckpointName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ".", "_" or "-", starting with a letter or digit')
  .refine((name) => !name.startsWith(CHECKPOINT_ID_PREFIX), `must not start with "${CHECKPOINT_ID_PREFIX}" (checkpoint ids do)`);

export const CheckpointCreateRequest = z.lazy(() =>
  z
    .strictObject({
      name: CheckpointName.optional().describe('Restore by this name too; a checkpoint that had it is replaced (CHOICE-46).'),
    })
    .meta({ id: 'CheckpointCreateRequest' }),
);
export type CheckpointCreateRequest = z.infer<typeof CheckpointCreateRequest>;

export const Checkpoint = z.lazy(() =>
  z
    .object({
      object: z.literal('checkpoint'),
      id: z.string(),
      name: z.string().nullable(),
      created_at: DateTime.describe("On the emulator's clock."),
      clock_offset_ms: z.number().int().describe('The clock offset a restore puts back.'),
      schema_version: z.number().int(),
      rows: z.number().int().describe('Rows of every table it holds.'),
    })
    .meta({ id: 'Checkpoint' }),
);
export type Checkpoint = z.infer<typeof Checkpoint>;

export const CheckpointCreated = z.lazy(() =>
  Checkpoint.unwrap()
    .extend({
      replaced: z.string().nullable().describe('The id of the checkpoint that had this name before, now deleted; else null.'),
    })
    .meta({ id: 'CheckpointCreated' }),
);
export type CheckpointCreated = z.infer<typeof CheckpointCreated>;

export const CheckpointList = z.lazy(() => listOf(Checkpoint, 'CheckpointList'));
export type CheckpointList = z.infer<typeof CheckpointList>;

export const CheckpointRestore = z.lazy(() =>
  z
    .object({
      object: z.literal('checkpoint_restore'),
      id: z.string(),
      name: z.string().nullable(),
      clock_offset_ms: z.number().int(),
      rows: z.number().int(),
    })
    .meta({ id: 'CheckpointRestore' }),
);
export type CheckpointRestore = z.infer<typeof CheckpointRestore>;

export const CheckpointDelete = z.lazy(() =>
  z.object({ object: z.literal('checkpoint_delete'), id: z.string(), name: z.string().nullable() }).meta({ id: 'CheckpointDelete' }),
);
export type CheckpointDelete = z.infer<typeof CheckpointDelete>;
