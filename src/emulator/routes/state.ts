import { OPS } from '../../contract/operations/index.js';
import { implement } from '../http/implement.js';
import { exportState } from '../state/export.js';
import { importState } from '../state/import.js';
import { resetState } from '../state/reset.js';

/** The emulator's whole state (`scanctl state export|import|reset`). */
export const stateRoutes = [
  implement(OPS.exportState)(({ ctx, query: { include_secrets: include } }) => ({
    status: 200,
    body: exportState(ctx, { includeSecrets: include === '1' || include === 'true' }),
  })),
  implement(OPS.importState)(({ ctx, body }) => ({ status: 200, body: importState(ctx, body) })),
  implement(OPS.resetState)(({ ctx }) => ({ status: 200, body: resetState(ctx) })),
];
