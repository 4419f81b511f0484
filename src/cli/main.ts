import { CommanderError, type Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';
import { reportError } from './report-error.js';
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
  const program = await buildProgram(packageVersion(), io, args);
  try {
    await program.parseAsync(args, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError && (error.exitCode === 0 || HELP_CODES.has(error.code))) {
      // Help or the version was printed; a group called without its verb printed its help on stderr.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(error, io, wantsJson(args), `${commandPath(program, args)} --help`);
  }
}

const HELP_CODES: ReadonlySet<string> = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version']);

/** --json anywhere before `--`: errors then come as one JSON object on stdout, whatever failed. */
function wantsJson(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

/** The command a command line reached (`scanctl scan simulate`), for the help its usage error points at. */
function commandPath(program: Command, args: string[]): string {
  const names = [program.name()];
  let current = program;
  for (const arg of args) {
    if (arg === '--') break;
    const next = arg.startsWith('-') ? undefined : current.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!next) continue;
    names.push(next.name());
    current = next;
  }
  return names.join(' ');
}
