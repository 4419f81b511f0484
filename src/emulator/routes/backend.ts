import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import { deleteMemberData } from '../domain/member-data.js';
import { mintSession } from '../domain/sessions.js';
import { implement } from '../http/implement.js';

/** The customer backend's routes: the two the spec shows in full. */
export const backendRoutes = [
  implement(OPS.createSession, {
    before({ c }) {
      // SES-3: retries are safe without it, so the header is refused rather than silently ignored.
      if (c.req.header('idempotency-key') !== undefined) {
        throw new ApiError(
          'idempotency_key_not_accepted',
          'POST /v1/sessions does not accept an Idempotency-Key header; a retried mint simply yields another token.',
          'Idempotency-Key',
        );
      }
    },
  })(async ({ ctx, caller, body }) => ({ status: 201, body: await mintSession(ctx.store, ctx.ids, ctx.clock.now(), caller, body) })),
  // DEL-1..3: the member's stored results and queued deliveries, under the calling key's app.
  implement(OPS.deleteResults)(({ ctx, caller, query }) => ({
    status: 200,
    body: { host_user_ref: query.host_user_ref, deleted: deleteMemberData(ctx, caller.app.id, query.host_user_ref) },
  })),
] as const;
