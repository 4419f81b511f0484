import { OPS } from '../../contract/operations/index.js';
import { changeKeyState, issueKeyPair, keyToChange, keyView, rotateSecretKey, type KeyAction } from '../domain/keys.js';
import { implement, type RouteInput } from '../http/implement.js';

const keyAction = (action: KeyAction) => (input: RouteInput<typeof OPS.revokeKey>) => {
  const { ctx, app, body } = input;
  const now = ctx.clock.now();
  return { status: 200 as const, body: keyView(changeKeyState(ctx.store, now, keyToChange(ctx.store, now, app, body), action), now) };
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
    const data = [
      keyView(ctx.store.keys.byId(rotated.secret.id)!, now, rotated.secret.key),
      keyView(ctx.store.keys.byId(rotated.previous.id)!, now),
    ];
    return { status: 201, body: { object: 'list', data } };
  }),
  implement(OPS.revokeKey)(keyAction('revoke')),
  implement(OPS.suspendKey)(keyAction('suspend')),
  implement(OPS.reinstateKey)(keyAction('reinstate')),
] as const;
