import type { RequestLogLine } from '../../contract/request-log.js';
import { OPS } from '../../contract/operations/index.js';
import { logFilter } from '../domain/request-log.js';
import { implement } from '../http/implement.js';
import { sseResponse } from '../http/sse.js';

/** The request log (`scanctl logs tail`): the recent lines, and a live stream that starts with a backlog. */
export const requestLogRoutes = [
  implement(OPS.listRequestLog)(({ ctx, query }) => {
    const { filter, sinceMs } = logFilter(query, ctx.clock.now());
    return {
      status: 200,
      body: { object: 'list', data: ctx.requestLog.recent(filter, sinceMs, query.n ?? (sinceMs === null ? 100 : undefined)) },
    };
  }),
  implement(OPS.streamRequestLog)(({ ctx, c, query }) => {
    const { filter, sinceMs } = logFilter(query, ctx.clock.now());
    return sseResponse(c, ctx.streams, async (channel) => {
      const backlog = ctx.requestLog.recent(filter, sinceMs, query.n ?? (sinceMs === null ? 0 : undefined));
      const send = (line: RequestLogLine) => channel.send('request', line, String(line.seq));
      // Subscribe before replaying the backlog: nothing falls between the two.
      const unsubscribe = ctx.requestLog.subscribe((line) => {
        if (filter(line)) send(line);
      });
      for (const line of backlog) send(line);
      await channel.flushed();
      channel.send('ready', { backlog: backlog.length });
      return unsubscribe;
    });
  }),
] as const;
