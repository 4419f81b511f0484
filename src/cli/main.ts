import { CommanderError } from 'commander';
import { ApiCallError, ConnectionError } from '../client/http.js';
import { ExitWith, UserError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';
import { packageVersion } from '../util/package-root.js';

/**
 * `scanctl openapi | head -1`: the reader closed the pipe, so nothing more can be shown. Exit at
 * once with 0 (the reader chose to stop; a pipefail shell should not fail) instead of dying of
 * an unhandled EPIPE with a stack trace. Any other stream error stays what it was.
 */
export function exitQuietlyOnEpipe(stream: NodeJS.WriteStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return exit(EXIT.ok);
    throw error;
  });
}

/** Runs the CLI in this process, on the process's streams. */
export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnEpipe(process.stdout);
  exitQuietlyOnEpipe(process.stderr);
  process.exitCode = await runCli(argv.slice(2), processIo());
}

/**
 * Runs one command line (without `node scanctl`) against `io` and returns its exit code. One
 * handler turns every error into one line on stderr and an exit code.
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const program = buildProgram(packageVersion(), io);
  try {
    await program.parseAsync(args, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  }
}

export function reportError(error: unknown, io: CliIo): number {
  const write = (line: string) => io.stderr.write(`${line}\n`);
  if (error instanceof CommanderError) {
    // Commander already printed its message (usage errors) or the help/version text.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof ExitWith) return error.code;
  if (error instanceof UserError) {
    write(`scanctl: ${error.message}`);
    if (error.options.hint) write(`  hint: ${error.options.hint}`);
    return error.exitCode;
  }
  if (error instanceof ApiCallError) {
    const e = error.error;
    if (e) {
      write(`scanctl: ${error.method} ${error.path} failed: ${error.status} ${e.type} ${e.code}: ${e.message}${e.param ? ` (param: ${e.param})` : ''}`);
      const retryAfter = error.headers.get('retry-after');
      if (retryAfter) write(`  hint: retry after ${retryAfter} s`);
    } else {
      write(`scanctl: ${error.method} ${error.path} failed: HTTP ${error.status} without the service's error body`);
    }
    return EXIT.api;
  }
  if (error instanceof ConnectionError) {
    write(`scanctl: could not reach ${error.url} (${error.reason})`);
    write('  hint: start the emulator with `scanctl serve` (or `npx scanctl serve`), or pass --base-url / set SCANCTL_BASE_URL');
    return EXIT.connection;
  }
  write(`scanctl: unexpected error: ${(error as Error)?.message ?? String(error)}`);
  if (io.env.SCANCTL_DEBUG) write(String((error as Error)?.stack));
  else write('  this is a bug in scanctl; rerun with SCANCTL_DEBUG=1 for the stack trace');
  return EXIT.internal;
}
