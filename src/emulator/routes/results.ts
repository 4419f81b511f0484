import { Hono } from 'hono';
import { DeleteResultsQuery } from '../../contract/results.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { deleteAuthError } from '../domain/keys.js';
import { readQuery } from '../validate.js';
import { requireSecretKey } from './backend-auth.js';

/** Deletes a member's stored results and queued deliveries (DEL-1..3); the removal itself is pluggable. */
export type DeleteMemberData = (appId: string, hostUserRef: string) => number;

export function resultRoutes(ctx: EmulatorContext, deleteMemberData: DeleteMemberData) {
  return new Hono<AppEnv>().delete('/v1/results', (c) => {
    const auth = requireSecretKey(ctx, c, deleteAuthError);
    const query = readQuery(c, DeleteResultsQuery);
    const deleted = deleteMemberData(auth.app.id, query.host_user_ref);
    return c.json({ host_user_ref: query.host_user_ref, deleted }, 200);
  });
}
