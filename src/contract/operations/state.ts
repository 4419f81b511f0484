import { MAX_STATE_FILE_BYTES, StateExportQuery, StateFile, StateImport, StateReset } from '../state.js';
import { CONTROL_PREFIX } from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

/** The emulator's whole state (`scanctl state export|import|reset`). */

export const stateOperations = byOperationId(
  control({
    method: 'get',
    path: `${CONTROL_PREFIX}/state`,
    operationId: 'exportState',
    summary: "The emulator's whole state as diffable JSON: tables sorted, rows by primary key, keys sorted",
    description: 'Keys and tokens are hashes; webhook signing secrets are null (their hint stays) unless include_secrets=1.',
    query: StateExportQuery,
    responses: { 200: { description: 'The state file.', schema: StateFile } },
  }),
  control({
    method: 'post',
    path: `${CONTROL_PREFIX}/state/import`,
    operationId: 'importState',
    summary: 'Replace the whole state with a state file, in one transaction',
    description: 'A file from a newer schema version, an unknown table or column, or a broken reference is refused and nothing changes.',
    request: { schema: StateFile, maxBytes: MAX_STATE_FILE_BYTES },
    responses: { 200: { description: 'What was imported.', schema: StateImport } },
  }),
  control({
    method: 'post',
    path: `${CONTROL_PREFIX}/state/reset`,
    operationId: 'resetState',
    summary: 'Empty every table and re-seed the loaded (or bundled) fixtures; the clock keeps its time',
    description:
      'Empties every table (faults, chaos, deliveries included) and re-seeds the fixtures the emulator loaded, or the bundled ones. The clock keeps its time; an attached listener stays attached while its app and secret do (CHOICE-30).',
    responses: { 200: { description: 'Reset.', schema: StateReset } },
  }),
);
