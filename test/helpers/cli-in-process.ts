import { Readable } from 'node:stream';
import type { Emulator } from '../../src/emulator/create-emulator.js';
import type { CliIo, OutStream } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/main.js';

/** The base URL in-process commands use; requests to it go to the emulator's app.request. */
export const IN_PROCESS_URL = 'http://127.0.0.1:7226';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Requests go to its `app.request` (no socket); without one every request fails to connect. */
  emulator?: Pick<Emulator, 'app'>;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** What stdin holds; `stdinIsTTY` makes it a terminal instead. */
  input?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  /** Instead of the emulator's app.request (e.g. one that goes away after some calls). */
  fetch?: CliIo['fetch'];
  /** Called once the command listens for Ctrl+C, with the function that sends it. */
  onInterruptListener?: (interrupt: () => void) => void;
}

class Buffered implements OutStream {
  text = '';
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  columns = 100;
}

export function refusedFetch(): Promise<Response> {
  return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
}

/** Runs `scanctl ARGS` in this process against an in-process emulator: the fast way to test a command. */
export async function runCommand(args: string[], options: RunOptions = {}): Promise<CommandResult> {
  const stdout = new Buffered(Boolean(options.stdoutIsTTY));
  const stderr = new Buffered(false);
  const stdin = Object.assign(Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]), {
    isTTY: Boolean(options.stdinIsTTY),
  });
  const listeners = new Set<() => void>();
  const { emulator } = options;
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env: { NO_COLOR: '1', ...(emulator ? { SCANCTL_BASE_URL: IN_PROCESS_URL } : {}), ...options.env },
    cwd: options.cwd ?? process.cwd(),
    fetch:
      options.fetch ??
      (emulator
        ? (input, init) => Promise.resolve(emulator.app.request(input instanceof Request ? input : String(input), init))
        : refusedFetch),
    onInterrupt(listener) {
      listeners.add(listener);
      options.onInterruptListener?.(() => {
        for (const l of [...listeners]) l();
      });
      return () => void listeners.delete(listener);
    },
  };
  const code = await runCli(args, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}
