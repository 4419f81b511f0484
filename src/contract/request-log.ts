import { z } from 'zod';
import { listOf } from './list.js';
import { DateTime, DateTimeInput, DURATION_PATTERN, queryInteger } from './time.js';

/** The emulator's request log (`scanctl logs tail`): what was called, answered how, by which key (display form only). */

export const RequestLogLine = z.lazy(() =>
  z
    .object({
      seq: z.number().int(),
      time: DateTime,
      method: z.string(),
      path: z.string(),
      status: z.number().int(),
      latency_ms: z.number(),
      key: z.string().optional().describe('The display form of the key (prefix and last four), never the key.'),
      env: z.enum(['test', 'live']).optional(),
      app_id: z.string().optional(),
      error_code: z.string().optional(),
    })
    .meta({ id: 'RequestLogLine' }),
);
export type RequestLogLine = z.infer<typeof RequestLogLine>;

/** Filters of GET /_scanctl/logs and its live stream. */
export const LogQuery = z.strictObject({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5][0-9]{2})(,([1-5]xx|[1-5][0-9]{2}))*$/, 'must be a status or class such as 401, 4xx, 5xx (comma separated)')
    .optional(),
  path: z.string().max(300).optional(),
  method: z.string().max(10).optional(),
  app: z.string().max(100).optional(),
  /** A duration back from the emulator's now (5m, 1h) or an ISO time. */
  since: z
    .union([z.string().max(40).regex(DURATION_PATTERN, 'must be a duration such as 5m or an RFC 3339 date-time'), DateTimeInput])
    .optional(),
  /** The last n matching lines of the buffer first. */
  n: queryInteger(0, 1000).optional(),
  /** Include the control plane's own requests (/_scanctl). */
  all: z.enum(['0', '1', 'true', 'false']).optional(),
});
export type LogQuery = z.infer<typeof LogQuery>;

export const RequestLogList = z.lazy(() => listOf(RequestLogLine, 'RequestLogList'));
export type RequestLogList = z.infer<typeof RequestLogList>;
