import type { Command } from 'commander';
import type { RequestLogLine } from '../../../contract/request-log.js';
import { ExtrasClient, type LogQueryParams } from '../../../client/extras.js';
import { contextOf } from '../../context.js';
import { UserError } from '../../errors.js';
import { dim, green, red, yellow } from '../../style.js';

interface TailFlags {
  status?: string;
  path?: string;
  method?: string;
  since?: string;
  lines?: string;
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

/** scanctl logs tail. */
export function register(group: Command): void {
  group
    .command('tail')
    .description("the emulator's request log, live: time, method, path, status, key and environment, latency, error code")
    .option('--status <filter>', 'only these statuses: 401, 4xx, 5xx (comma separated)')
    .option('--path <prefix>', 'only paths that start with prefix')
    .option('--method <method>', 'only this method')
    .option('--since <when>', 'first the lines of the last duration (5m, 1h) or since an ISO time')
    .option('-n, --lines <n>', 'first the last n matching lines (default 10)')
    .option('--no-follow', 'print the recent lines and exit')
    .option('--all', "include the control plane's own requests (/_scanctl)")
    .addHelpText('after', '\nWith the global --app ID, only that app\'s requests. --json prints one JSON object per line.\nExample: scanctl logs tail --status 4xx --path /v1/sessions')
    .action(async (flags: TailFlags, command: Command) => {
      const ctx = contextOf(command);
      if (flags.status && !/^([1-5]xx|[1-5][0-9]{2})(,([1-5]xx|[1-5][0-9]{2}))*$/.test(flags.status)) {
        throw new UserError(`--status must be a status or class such as 401, 4xx or 5xx, not "${flags.status}"`);
      }
      if (flags.lines !== undefined && !/^\d+$/.test(flags.lines)) throw new UserError(`-n must be a whole number, not "${flags.lines}"`);
      const query: LogQueryParams = {
        status: flags.status,
        path: flags.path,
        method: flags.method,
        app: ctx.options.app,
        since: flags.since,
        n: flags.lines ?? (flags.since ? undefined : '10'),
        all: flags.all ? '1' : undefined,
      };
      const print = (line: RequestLogLine) => ctx.io.stdout.write(`${ctx.json ? JSON.stringify(line) : formatLogLine(line)}\n`);
      const client = ctx.extras();
      if (!flags.follow) {
        for (const line of (await client.logs(query)).data) print(line);
        return;
      }
      const controller = new AbortController();
      const stop = () => controller.abort();
      const unlisten = ctx.io.onInterrupt(stop);
      try {
        await client.streamLogs(query, print, controller.signal, () => {
          if (!ctx.json) ctx.io.stderr.write(dim('Following the request log; Ctrl+C to stop.\n', ctx.io.stderr));
        });
      } finally {
        unlisten();
      }
    });
}
