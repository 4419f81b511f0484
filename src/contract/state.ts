import { z } from 'zod';
import { CHOICES } from './choices.js';

/** The emulator's whole state as a file (`scanctl state export|import|reset`). */

export const STATE_FORMAT = 'scanctl-state';
export const STATE_FORMAT_VERSION = 1;
/** The database schema this scanctl writes: its last migration (src/store/migrations, checked by a test). */
export const LATEST_SCHEMA_VERSION = 11;

const Cell = z.lazy(() => z.union([z.string(), z.number(), z.null(), z.strictObject({ base64: z.string() })]));
export type StateCell = z.infer<typeof Cell>;

export const StateFile = z.lazy(() =>
  z
    .strictObject({
      format: z.literal(STATE_FORMAT),
      format_version: z.literal(STATE_FORMAT_VERSION),
      schema_version: z
        .number()
        .int()
        .min(1)
        // The bound is the importing emulator's, which a CLI of another version cannot know: the import checks it; the document says it.
        .meta({
          maximum: LATEST_SCHEMA_VERSION,
          description: `The database schema the file was exported from: 1 to this emulator's ${LATEST_SCHEMA_VERSION} (newer is 400 parameter_invalid: upgrade scanctl); an older one imports as far as its columns go.`,
        }),
      // Bounded so that the emulator's now stays a date (a fuzzer found 1e300 answering 500 on every route after).
      clock_offset_ms: z.number().int().min(-CHOICES.maxClockOffsetMs).max(CHOICES.maxClockOffsetMs),
      includes_secrets: z.boolean(),
      tables: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a table name'), z.array(z.record(z.string(), Cell))),
    })
    .meta({ id: 'StateFile', description: "The emulator's whole state: one table per key, rows sorted by primary key." }),
);
export type StateFile = z.infer<typeof StateFile>;

export const StateExportQuery = z.strictObject({
  include_secrets: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .describe('1: webhook signing secrets in plain text, for an import elsewhere.'),
});

export const StateImport = z.lazy(() =>
  z
    .object({
      object: z.literal('state_import'),
      schema_version: z.number().int(),
      clock_offset_ms: z.number().int(),
      tables: z.record(z.string(), z.number().int()),
      /** Apps whose signing secret was not in the file and could not be kept: their deliveries cannot be signed. */
      apps_without_signing_secret: z.array(z.string()),
    })
    .meta({ id: 'StateImport' }),
);
export type StateImport = z.infer<typeof StateImport>;

export const StateReset = z.lazy(() =>
  z.object({ object: z.literal('state_reset'), fixtures: z.string().nullable(), apps: z.array(z.string()) }).meta({ id: 'StateReset' }),
);
export type StateReset = z.infer<typeof StateReset>;

/** A state file may be far larger than an API body (CHOICES.maxBodyBytes). */
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;
