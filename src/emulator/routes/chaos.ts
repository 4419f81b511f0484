import { OPS } from '../../contract/operations/index.js';
import { chaosView } from '../../webhooks/chaos.js';
import { implement } from '../http/implement.js';

/** Delivery chaos per app (`scanctl webhook chaos`): consulted by the dispatcher before each attempt. */
export const chaosRoutes = [
  implement(OPS.getChaos)(({ ctx, app }) => ({ status: 200, body: chaosView(app.id, ctx.store.chaos.get(app.id)) })),
  implement(OPS.setChaos)(({ ctx, app, body }) => {
    const now = ctx.clock.now();
    const previous = ctx.store.chaos.get(app.id);
    ctx.store.chaos.upsert({
      app_id: app.id,
      seed: body.seed ?? ctx.ids.seed(),
      drop_probability: body.drop,
      duplicate_probability: body.duplicate,
      delay_ms: body.delay_ms,
      delay_probability: body.delay_probability,
      reorder: body.reorder ? 1 : 0,
      fail_first: body.fail_first,
      fail_status: body.fail_status,
      created_at: previous?.created_at ?? now,
      updated_at: now,
    });
    return { status: 200, body: chaosView(app.id, ctx.store.chaos.get(app.id)) };
  }),
  implement(OPS.clearChaos)(({ ctx, app }) => {
    ctx.store.chaos.delete(app.id);
    return { status: 200, body: chaosView(app.id, undefined) };
  }),
] as const;
