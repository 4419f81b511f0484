import { Option, type Command } from 'commander';
import type { RequestLogLine } from '../../../contract/request-log.js';
import type { RequestLogQuery } from '../../../client/control.js';
import { contextOf } from '../../context.js';
import { durationOrTime, matching, wholeNumber } from '../../parse-options.js';
import { dim, green, red, yellow } from '../../style.js';

interface TailFlags {
  status?: string;
  path?: string;
  method?: string;
  since?: string;
  lines?: number;
  follow: boolean;
  all?: boolean;
}

/** One line: time, method, path, status, key (display form) and environment, latency, error code. */
export function formatLogLine(line: RequestLogLine): string {
  const colour = line.status >= 500 ? red : line.status >= 400 ? yellow : green;
  const who = line.key ? `${line.key}${line.env ? ` (${line.env})` : ''}` : line.env ? `(${line.env})` : '-';
  return [
    dim(line.time),
    line.method.padEnd(6),
    line.path.padEnd(24),
    colour(String(line.status)),
    who.padEnd(24),
    `${line.latency_ms.toFixed(1).padStart(7)} ms`,
    line.error_code ?? '',
  ]
    .join('  ')
    .trimEnd();
}

/** A line under --json: named by `object`, every field present (null when absent). */
export function logLineJson(line: RequestLogLine) {
  return {
    object: 'request_log_line',
    ...line,
    key: line.key ?? null,
    env: line.env ?? null,
    app_id: line.app_id ?? null,
    error_code: line.error_code ?? null,
  };
}

/** `scanctl logs tail`. */
export function register(group: Command): void {
  group
    .command('tail')
    .description("the emulator's request log, live: time, method, path, status, key and environment, latency, error code")
    .addOption(
      new Option('--status <filter>', 'only these statuses: 401, 4xx, 5xx (comma separated)').argParser(
        matching(/^([1-5]xx|[1-5][0-9]{2})(,([1-5]xx|[1-5][0-9]{2}))*$/, 'statuses or classes such as 401, 4xx or 5xx, comma separated'),
      ),
    )
    .option('--path <prefix>', 'only paths that start with prefix')
    .addOption(new Option('--method <method>', 'only this method').argParser(matching(/^[A-Za-z]{3,7}$/, 'an HTTP method such as POST')))
    .addOption(
      new Option('--since <when>', 'first the lines of the last duration (5m, 1h) or since an RFC 3339 time').argParser(durationOrTime),
    )
    .addOption(new Option('-n, --lines <n>', 'first the last n matching lines (default 10)').argParser(wholeNumber(0, 1000)))
    .option('--no-follow', 'print the recent lines and exit')
    .option('--all', "include the control plane's own requests (/_scanctl)")
    .addHelpText(
      'after',
      "\nWith the global --app ID, only that app's requests. --json prints one JSON object per line.\nExample: scanctl logs tail --status 4xx --path /v1/sessions",
    )
    .action(async (flags: TailFlags, command: Command) => {
      const ctx = contextOf(command);
      const query: RequestLogQuery = {
        status: flags.status,
        path: flags.path,
        method: flags.method?.toUpperCase(),
        app: ctx.options.app,
        since: flags.since,
        n: flags.lines !== undefined ? String(flags.lines) : flags.since ? undefined : '10',
        all: flags.all ? '1' : undefined,
      };
      const print = (line: RequestLogLine) => ctx.printLine(logLineJson(line), formatLogLine(line));
      const client = ctx.control();
      if (!flags.follow) {
        for (const line of (await client.requestLog(query)).data) print(line);
        return;
      }
      const controller = new AbortController();
      const stop = () => controller.abort();
      const unlisten = ctx.io.onInterrupt(stop);
      try {
        await client.followRequestLog(query, print, controller.signal, () => {
          if (!ctx.json) ctx.io.stderr.write(dim('Following the request log; Ctrl+C to stop.\n', ctx.io.stderr));
        });
      } finally {
        unlisten();
      }
    });
}
