import { ApiError } from '../../contract/errors.js';
import { OPS } from '../../contract/operations/index.js';
import type { FaultRow } from '../../store/tables/faults.js';
import { faultView } from '../domain/faults.js';
import { implement } from '../http/implement.js';

/** API faults (`scanctl faults`): chosen routes answer a chosen error, for N calls or with a seeded probability. */
export const faultRoutes = [
  implement(OPS.listFaults)(({ ctx }) => ({ status: 200, body: { object: 'list', data: ctx.store.faults.all().map(faultView) } })),
  implement(OPS.addFault)(({ ctx, body }) => {
    const row: FaultRow = {
      id: ctx.ids.id('flt'),
      method: body.method,
      path: body.path,
      status: body.status,
      code: body.code,
      message: body.message ?? null,
      count: body.count ?? null,
      remaining: body.count ?? null,
      probability: body.probability ?? null,
      seed: body.seed ?? ctx.ids.seed(),
      matched: 0,
      injected: 0,
      created_at: ctx.clock.now(),
    };
    ctx.store.faults.insert(row);
    return { status: 201, body: faultView(row) };
  }),
  implement(OPS.clearFaults)(({ ctx }) => ({ status: 200, body: { object: 'fault_clear', cleared: ctx.store.faults.deleteAll() } })),
  implement(OPS.clearFault)(({ ctx, params: { fault_id } }) => {
    if (!ctx.store.faults.delete(fault_id)) throw new ApiError('resource_missing', `No fault ${fault_id.slice(0, 100)}.`, 'fault_id');
    return { status: 200, body: { object: 'fault_clear', cleared: 1 } };
  }),
] as const;
