/**
 * Each area's operations, imported on first use. A client command loads the declarations (and
 * the zod schemas under them) of the one area it calls, not every route's: `scanctl clock show`
 * needs the control plane's, not the device's or chaos's (docs/performance.md). The emulator and
 * the OpenAPI document take them all from ./index.js.
 */
export const areas = {
  backend: async () => (await import('./backend.js')).backendOperations,
  portal: async () => (await import('./portal.js')).portalOperations,
  control: async () => (await import('./control.js')).controlOperations,
  scans: async () => (await import('./scans.js')).scanOperations,
  webhooks: async () => (await import('./webhooks.js')).webhookOperations,
  faults: async () => (await import('./faults.js')).faultOperations,
  chaos: async () => (await import('./chaos.js')).chaosOperations,
  state: async () => (await import('./state.js')).stateOperations,
  checkpoints: async () => (await import('./checkpoints.js')).checkpointOperations,
  requestLog: async () => (await import('./request-log.js')).requestLogOperations,
};
