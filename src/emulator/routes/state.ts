import { OPS } from '../../contract/operations/index.js';
import { implement } from '../http/implement.js';
import { exportStateStream } from '../state/export.js';
import { importState } from '../state/import.js';
import { resetState } from '../state/reset.js';

/** The emulator's whole state (`scanctl state export|import|reset`). */
export const stateRoutes = [
  // Streamed: the emulator holds one page of rows at a time, whatever the size of the database.
  implement(OPS.exportState)(({ ctx, query: { include_secrets: include } }) => {
    const stream = exportStateStream(ctx, { includeSecrets: include === '1' || include === 'true' });
    return new Response(stream, { status: 200, headers: { 'content-type': 'application/json' } });
  }),
  implement(OPS.importState)(({ ctx, body }) => ({ status: 200, body: importState(ctx, body) })),
  implement(OPS.resetState)(({ ctx }) => ({ status: 200, body: resetState(ctx) })),
];
