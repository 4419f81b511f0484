import type { KeyView } from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import { toIso } from '../../contract/time.js';
import type { ApiKeyRow } from '../../store/tables/api-keys.js';
import type { EmulatorContext } from '../context.js';
import { changeKeyState, currentSecretKey, issueKeyPair, keyState, rotateSecretKey, type KeyAction } from '../domain/keys.js';
import { implement, type RouteInput } from '../http/implement.js';

export function keyView(row: ApiKeyRow, now: number, secret?: string): KeyView {
  const view: KeyView = {
    id: row.id,
    object: 'api_key',
    env: row.env,
    kind: row.kind,
    display: row.display,
    state: keyState(row, now),
    grace_until: row.grace_until === null ? null : toIso(row.grace_until),
    replaced_by: row.replaced_by,
    created_at: toIso(row.created_at),
  };
  if (secret) view.secret = secret;
  return view;
}

/** The key that a revoke, suspend or reinstate names: by key_id, or the app's current secret key of env. */
function targetKey(ctx: EmulatorContext, input: RouteInput<typeof OPS.revokeKey>): ApiKeyRow {
  const { app, body } = input;
  if (body.key_id) {
    const key = ctx.store.keys.byId(body.key_id);
    if (!key || key.app_id !== app.id) throw new ApiError('resource_missing', `No key ${body.key_id.slice(0, 100)} on ${app.id}.`, 'key_id');
    return key;
  }
  const env = body.env ?? 'test';
  const key = currentSecretKey(ctx.store, ctx.clock.now(), app.id, env);
  if (!key) throw new ApiError('resource_missing', `${app.id} has no current ${env} secret key.`, 'env');
  return key;
}

const keyAction = (action: KeyAction) => (input: RouteInput<typeof OPS.revokeKey>) => {
  const { ctx } = input;
  const now = ctx.clock.now();
  return { status: 200 as const, body: keyView(changeKeyState(ctx.store, now, targetKey(ctx, input), action), now) };
};

/** Keys, the portal's side (CHOICE-8): list, issue, rotate with grace (AUTH-8), revoke, suspend, reinstate. */
export const keyRoutes = [
  implement(OPS.listKeys)(({ ctx, app }) => {
    const now = ctx.clock.now();
    return { status: 200, body: { object: 'list', data: ctx.store.keys.forApp(app.id).map((k) => keyView(k, now)) } };
  }),
  implement(OPS.issueKeys)(({ ctx, app, body }) => {
    const now = ctx.clock.now();
    const pair = issueKeyPair(ctx.store, ctx.ids, now, app, body.env);
    const data = [pair.secret, pair.publishable].map((k) => keyView(ctx.store.keys.byId(k.id)!, now, k.key));
    return { status: 201, body: { object: 'list', data } };
  }),
  implement(OPS.rotateKey)(({ ctx, app, body }) => {
    const now = ctx.clock.now();
    const rotated = rotateSecretKey(ctx.store, ctx.ids, now, app, body.env);
    const data = [keyView(ctx.store.keys.byId(rotated.secret.id)!, now, rotated.secret.key), keyView(ctx.store.keys.byId(rotated.previous.id)!, now)];
    return { status: 201, body: { object: 'list', data } };
  }),
  implement(OPS.revokeKey)(keyAction('revoke')),
  implement(OPS.suspendKey)(keyAction('suspend')),
  implement(OPS.reinstateKey)(keyAction('reinstate')),
];
