import { OPS } from '../../contract/operations/index.js';
import { implement } from '../http/implement.js';
import { exportStateStream } from '../state/export.js';
import { producedInFull } from '../state/export-buffer.js';
import { importState } from '../state/import.js';
import { resetState } from '../state/reset.js';

/** The emulator's whole state (`scanctl state export|import|reset`). */
export const stateRoutes = [
  // Produced in full before the 200 (a read that meets damage is an error body, not a cut 200), in bounded memory.
  implement(OPS.exportState)(async ({ ctx, query: { include_secrets: include } }) => {
    const stream = await producedInFull(exportStateStream(ctx, { includeSecrets: include === '1' || include === 'true' }));
    return new Response(stream, { status: 200, headers: { 'content-type': 'application/json' } });
  }),
  implement(OPS.importState)(({ ctx, body }) => ({ status: 200, body: importState(ctx, body) })),
  implement(OPS.resetState)(({ ctx }) => ({ status: 200, body: resetState(ctx) })),
] as const;
