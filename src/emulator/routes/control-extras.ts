import { Hono } from 'hono';
import { z } from 'zod';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { CONTROL_PREFIX } from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import {
  ChaosSetRequest,
  FaultCreateRequest,
  LogQuery,
  StateExportQuery,
  type FaultClearResponse,
  type FaultListResponse,
  type FaultView,
  type LogListResponse,
  type RequestLogLine,
} from '../../contract/extras.js';
import { toIso } from '../../contract/time.js';
import type { FaultRow } from '../../store/tables/extras.js';
import { freshSeed } from '../../util/seeded-random.js';
import { chaosView } from '../../webhooks/chaos.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { RequestLogBuffer, logFilter } from '../extras/log-buffer.js';
import { isActive } from '../middleware/faults.js';
import { exportState } from '../state/export.js';
import { importState } from '../state/import.js';
import { resetState } from '../state/reset.js';
import { readJson, readQuery } from '../validate.js';

/** State files may be far larger than an API body; this route has its own limit. */
export const STATE_IMPORT_PATH = `${CONTROL_PREFIX}/state/import`;
export const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;
/** A comment line on the live log stream every so often keeps proxies and idle timers from closing it. */
const HEARTBEAT_MS = 15_000;

export function faultView(row: FaultRow): FaultView {
  return {
    id: row.id,
    object: 'fault',
    method: row.method as FaultView['method'],
    path: row.path,
    status: row.status,
    code: row.code,
    message: row.message,
    count: row.count,
    remaining: row.remaining,
    probability: row.probability,
    seed: row.seed,
    matched: row.matched,
    injected: row.injected,
    active: isActive(row),
    created_at: toIso(row.created_at),
  };
}

/** Control plane extras (issue 6): faults, chaos, state export/import/reset, request log stream. */
export function controlExtraRoutes(ctx: EmulatorContext) {
  const { store } = ctx;
  const logs = new RequestLogBuffer(ctx);
  const app = (id: string) => {
    const row = store.apps.get(id);
    if (!row) throw new ApiError('resource_missing', `No app ${id.slice(0, 100)}.`, 'app_id');
    return row;
  };

  return (
    new Hono<AppEnv>()
      .basePath(CONTROL_PREFIX)
      // ---- API faults ----
      .get('/faults', (c) => c.json<FaultListResponse>({ object: 'list', data: store.extras.faults.all().map(faultView) }))
      .post('/faults', async (c) => {
        const body = await readJson(c, FaultCreateRequest);
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
          seed: body.seed ?? freshSeed(),
          matched: 0,
          injected: 0,
          created_at: ctx.clock.now(),
        };
        store.extras.faults.insert(row);
        return c.json(faultView(row), 201);
      })
      .delete('/faults', (c) => c.json<FaultClearResponse>({ object: 'fault_clear', cleared: store.extras.faults.deleteAll() }))
      .delete('/faults/:fault_id', (c) => {
        const id = c.req.param('fault_id');
        if (!store.extras.faults.delete(id)) throw new ApiError('resource_missing', `No fault ${id.slice(0, 100)}.`, 'fault_id');
        return c.json<FaultClearResponse>({ object: 'fault_clear', cleared: 1 });
      })
      // ---- Delivery chaos, per app ----
      .get('/apps/:app_id/chaos', (c) => {
        const row = app(c.req.param('app_id'));
        return c.json(chaosView(row.id, store.extras.chaos.get(row.id)));
      })
      .put('/apps/:app_id/chaos', async (c) => {
        const row = app(c.req.param('app_id'));
        const body = await readJson(c, ChaosSetRequest);
        const now = ctx.clock.now();
        const previous = store.extras.chaos.get(row.id);
        store.extras.chaos.upsert({
          app_id: row.id,
          seed: body.seed ?? freshSeed(),
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
        return c.json(chaosView(row.id, store.extras.chaos.get(row.id)));
      })
      .delete('/apps/:app_id/chaos', (c) => {
        const row = app(c.req.param('app_id'));
        store.extras.chaos.delete(row.id);
        return c.json(chaosView(row.id, undefined));
      })
      // ---- State ----
      .get('/state', (c) => {
        const { include_secrets: include } = readQuery(c, StateExportQuery);
        return c.json(exportState(ctx, { includeSecrets: include === '1' || include === 'true' }));
      })
      .post(
        '/state/import',
        bodyLimit({
          maxSize: MAX_STATE_FILE_BYTES,
          onError: () => {
            throw new ApiError('body_too_large', `A state file may be at most ${MAX_STATE_FILE_BYTES} bytes.`);
          },
        }),
        async (c) => c.json(importState(ctx, await readJson(c, z.unknown()))),
      )
      .post('/state/reset', (c) => c.json(resetState(ctx)))
      // ---- Request log ----
      .get('/logs', (c) => {
        const query = readQuery(c, LogQuery);
        const { filter, sinceMs } = logFilter(query, ctx.clock.now());
        return c.json<LogListResponse>({ object: 'list', data: logs.recent(filter, sinceMs, query.n ?? (sinceMs === null ? 100 : undefined)) });
      })
      .get('/logs/stream', (c) => {
        const query = readQuery(c, LogQuery);
        const { filter, sinceMs } = logFilter(query, ctx.clock.now());
        return streamSSE(c, async (stream) => {
          const backlog = logs.recent(filter, sinceMs, query.n ?? (sinceMs === null ? 0 : undefined));
          let queue = Promise.resolve();
          const send = (line: RequestLogLine) => {
            queue = queue.then(() => stream.writeSSE({ event: 'request', id: String(line.seq), data: JSON.stringify(line) })).catch(() => undefined);
          };
          // Subscribe before replaying the backlog: nothing falls between the two.
          const unsubscribe = logs.subscribe((line) => {
            if (filter(line)) send(line);
          });
          for (const line of backlog) send(line);
          await queue;
          await stream.writeSSE({ event: 'ready', data: JSON.stringify({ backlog: backlog.length }) });
          const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n').catch(() => undefined), HEARTBEAT_MS);
          await new Promise<void>((done) => {
            stream.onAbort(() => done());
            c.req.raw.signal?.addEventListener('abort', () => done(), { once: true });
          });
          clearInterval(heartbeat);
          unsubscribe();
        });
      })
  );
}
