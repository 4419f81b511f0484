import type { StateContext } from './state-context.js';
import { cancelQueuedDeliveries } from '../../webhooks/outbox.js';
import { deleteStoredResults } from './stored-results.js';

/**
 * DEL-2: one transaction removes the member's stored results (the count answered as `deleted`)
 * and every queued delivery of that member under the app.
 */
export function deleteMemberData(ctx: StateContext, appId: string, hostUserRef: string): number {
  return ctx.store.db.transaction(() => {
    const deleted = deleteStoredResults(ctx.store, appId, hostUserRef);
    cancelQueuedDeliveries(ctx.store, appId, hostUserRef, ctx.clock.now());
    return deleted;
  })();
}
