import { Command } from 'commander';
import { requestOverNode, type FetchLike, type WebFetch } from '../client/node-request.js';

/** Where a command writes: process.stdout in a shell, a string buffer in a test. */
export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type InStream = NodeJS.ReadableStream & { isTTY?: boolean };

/**
 * Everything a command takes from the outside world. `main` passes the process's; tests pass
 * buffers and the emulator's `app.request` as `fetch`, and run commands without spawning.
 */
export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The path this scanctl was started from (process.argv[1]: bin/scanctl.js, a symlink to it, the single executable); tests leave it out. */
  launcher?: string;
  /** WHATWG fetch: `conform replay` sends recorded requests through it, its Headers checking what can be sent. */
  fetch: WebFetch;
  /** The client's requests: node:http in a shell (no undici to load); left out, `fetch` sends them. */
  request?: FetchLike;
  /** Calls `listener` on Ctrl+C or SIGTERM; returns the function that stops listening. */
  onInterrupt(listener: () => void): () => void;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin makes its stream when first read, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    launcher: process.argv[1],
    fetch: (input, init) => fetch(input, init),
    request: requestOverNode,
    onInterrupt(listener) {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}

/**
 * Resolves on the first interrupt, then stops listening, so a second Ctrl+C falls back to the
 * default and ends the process. Used by the long-running commands to shut down cleanly.
 */
export function waitForInterrupt(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
}

/** All of stdin, as bytes. */
export async function readAll(stream: InStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** A program's root command: it carries the io that every command under it runs with (set by `buildProgram`). */
export class ProgramCommand extends Command {
  constructor(
    name: string,
    readonly io: CliIo,
  ) {
    super(name);
  }
}

/** The io of the program a command belongs to (the process's for a command of no program). */
export function ioOf(command: Command): CliIo {
  let root = command;
  while (root.parent) root = root.parent;
  return root instanceof ProgramCommand ? root.io : processIo();
}
