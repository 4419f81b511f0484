import { ControlClient } from '../client/control.js';
import { toIso } from '../contract/time.js';
import type { RunningServer } from '../emulator/server.js';
import type { DeliveryQuery, EmulatorHandle } from './handle.js';
import { simulateScans } from './simulate-scan.js';
import { durationOf, timeOf } from './values.js';
import { settleDeliveries } from './settle.js';
import { isTargetedWait, waitForTargeted } from './wait.js';

// Apart from handle.ts on purpose: the public types (handle.d.ts) must not reach the emulator's
// server and store, whose types need better-sqlite3's (not a dependency of a customer's project).

export interface HandleCredentials {
  appId: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export function createHandle(server: RunningServer, credentials: HandleCredentials): EmulatorHandle {
  const { emulator, url } = server;
  const control = new ControlClient(url);
  const appId = credentials.appId;
  let cookie: string | null = null;

  const deliveries = async (query: DeliveryQuery = {}) => {
    // A scan without an id (refused before it started) has no delivery: never the whole app's list.
    if (query.scanId === null) return [];
    const list = await control.deliveries({
      app_id: appId,
      status: query.status,
      scan_id: query.scanId,
      event_id: query.eventId,
      limit: query.limit ?? 1000,
    });
    return Promise.all(list.data.map((d) => control.delivery(d.id)));
  };
  const close = async (): Promise<void> => void (await server.close());

  return {
    baseUrl: url,
    port: server.port,
    ...credentials,
    clock: {
      now: () => new Date(emulator.clock.now()),
      advance: async (duration) => control.advanceClock(`${durationOf(duration)}ms`),
      set: async (time) => control.setClock(toIso(timeOf(time, 'time'))),
    },
    app: () => control.app(appId),
    async updateApp(patch) {
      cookie ??= await control.portalLogin((await control.app(appId)).account_id);
      return control.updateApp(appId, patch, cookie);
    },
    async simulateScan(options) {
      return (await simulateScans(control, credentials, 1, options))[0]!;
    },
    simulateScans: (count, options) => simulateScans(control, credentials, count, options),
    scans: async (query = {}) => (await control.scans(appId, { host_user_ref: query.hostUserRef, limit: query.limit ?? 1000 })).data,
    deliveries,
    async waitForDeliveries(options = {}) {
      if (isTargetedWait(options)) return waitForTargeted(control, appId, options);
      await settleDeliveries(emulator, options.timeoutMs ?? 10_000);
      return deliveries();
    },
    exportState: (options = {}) => control.exportState(Boolean(options.includeSecrets)),
    importState: (state) => control.importState(state),
    reset: () => control.resetState(),
    checkpoint: async (name) => {
      const taken = await control.checkpoint(name);
      return { ...taken, restore: () => control.restoreCheckpoint(taken.id) };
    },
    restore: (checkpoint) => control.restoreCheckpoint(checkpoint),
    close,
    [Symbol.asyncDispose]: close,
  };
}
