import { CommanderError } from 'commander';
import { ApiCallError, ConnectionError, ContractError } from '../client/http.js';
import { ExitWith, UserError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo } from './io.js';
import { errorMessage } from '../util/caught.js';
import { RuntimeFolderError } from '../util/executable.js';

/** What every failed command reports: the same fields in plain text and under --json. */
export interface CliErrorReport {
  object: 'error';
  error: { type: string; code: string; message: string; param: string | null };
  http_status: number | null;
  exit_code: number;
}

const CODE_BY_EXIT: Record<number, string> = {
  [EXIT.usage]: 'usage',
  [EXIT.api]: 'api_error',
  [EXIT.connection]: 'connection_failed',
  [EXIT.waitFailed]: 'wait_failed',
  [EXIT.checkFailed]: 'check_failed',
  [EXIT.interrupted]: 'interrupted',
};

/** The report of an error, and the plain lines that say it (the message, then a hint). */
function describeError(error: unknown, debug: boolean, help = 'scanctl --help'): { report: CliErrorReport; lines: string[] } {
  const report = (
    type: string,
    code: string,
    message: string,
    exit: number,
    extra: { param?: string | null; status?: number | null } = {},
  ) => ({
    object: 'error' as const,
    error: { type, code, message, param: extra.param ?? null },
    http_status: extra.status ?? null,
    exit_code: exit,
  });
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    const code = error.code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    return { report: report('usage_error', code, message, EXIT.usage), lines: [`scanctl: ${message} (see ${help})`] };
  }
  if (error instanceof UserError) {
    const code = error.options.code ?? CODE_BY_EXIT[error.exitCode] ?? 'error';
    const type = error.exitCode === EXIT.usage ? 'usage_error' : 'cli_error';
    return {
      report: report(type, code, error.message, error.exitCode),
      lines: [`scanctl: ${error.message}`, ...(error.options.hint ? [`  hint: ${error.options.hint}`] : [])],
    };
  }
  if (error instanceof ApiCallError) {
    const e = error.error;
    if (!e) {
      const message = `${error.method} ${error.path} failed: HTTP ${error.status} without the service's error body`;
      return { report: report('api_error', 'no_error_body', message, EXIT.api, { status: error.status }), lines: [`scanctl: ${message}`] };
    }
    const retryAfter = error.headers.get('retry-after');
    const hint = retryAfter ? `retry after ${retryAfter} s` : apiHint(e.code);
    return {
      report: report(e.type, e.code, e.message, EXIT.api, { param: e.param ?? null, status: error.status }),
      lines: [
        `scanctl: ${error.method} ${error.path} failed: ${error.status} ${e.type} ${e.code}: ${e.message}${e.param ? ` (param: ${e.param})` : ''}`,
        ...(hint ? [`  hint: ${hint}`] : []),
      ],
    };
  }
  if (error instanceof ConnectionError) {
    return {
      report: report('connection_error', 'connection_failed', `could not reach ${error.url} (${error.reason})`, EXIT.connection),
      lines: [
        `scanctl: could not reach ${error.url} (${error.reason})`,
        '  hint: start the emulator with `scanctl serve` (or `npx scanctl serve`), or pass --base-url / set SCANCTL_BASE_URL',
      ],
    };
  }
  if (error instanceof RuntimeFolderError) {
    // The single executable could not unpack its addon and fixtures: the machine's doing, not a bug.
    return { report: report('cli_error', 'runtime_folder_unwritable', error.message, EXIT.internal), lines: [`scanctl: ${error.message}`] };
  }
  const message = error instanceof ContractError ? error.message : `unexpected error: ${errorMessage(error)}`;
  return {
    report: report('internal_error', 'bug', message, EXIT.internal),
    lines: [
      `scanctl: ${message}`,
      debug
        ? String(error instanceof Error ? error.stack : error)
        : '  this is a bug in scanctl; rerun with SCANCTL_DEBUG=1 for the stack trace',
    ],
  };
}

/** What to try next for the service's errors whose message cannot say it (the CLI's own flags). */
function apiHint(code: string): string | null {
  if (code === 'key_revoked')
    return 'the key was rotated and its grace period ended: pass the new key with --key (or set SCANCTL_SECRET_KEY)';
  return null;
}

/** Prints an error the way the invocation asked: one JSON object on stdout under --json, else lines on stderr. */
export function reportError(error: unknown, io: CliIo, json: boolean, help?: string): number {
  // Not an error of scanctl: `exec` passes on its command's exit code, and the command said what it had to.
  if (error instanceof ExitWith) return error.code;
  const { report, lines } = describeError(error, Boolean(io.env.SCANCTL_DEBUG), help);
  const alreadyInOutput = error instanceof UserError && error.options.reportedInOutput;
  if (json) {
    if (!alreadyInOutput) io.stdout.write(`${JSON.stringify(report)}\n`);
  } else io.stderr.write(`${lines.join('\n')}\n`);
  return report.exit_code;
}
