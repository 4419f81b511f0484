import { RequestLogList, LogQuery, RequestLogLine } from '../request-log.js';
import { CONTROL_PREFIX } from '../control.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control } from './define.js';

/** The request log (`scanctl logs tail`). */

export const requestLogOperations = byOperationId(
  control({
    method: 'get',
    path: `${CONTROL_PREFIX}/logs`,
    operationId: 'listRequestLog',
    summary: 'Recent request log lines (the last 1000 are kept), oldest first; keys only in their display form',
    description:
      "The request log as `scanctl logs tail` reads it: method, path, status, latency and the key's display form, never a secret. `n` or `since` bound the lines.",
    query: LogQuery,
    responses: { 200: { description: 'The lines.', schema: RequestLogList } },
  }),
  control({
    method: 'get',
    path: `${CONTROL_PREFIX}/logs/stream`,
    operationId: 'streamRequestLog',
    summary: 'The request log live (Server-Sent Events): the backlog of n / since first, then every new line',
    description: 'Events: `request` (one RequestLogLine), then `ready` once the backlog is sent; a comment heartbeat every 15 s.',
    query: LogQuery,
    responses: {
      200: {
        description: 'text/event-stream; each data line is a RequestLogLine.',
        schema: RequestLogLine,
        contentType: 'text/event-stream',
      },
    },
  }),
);
