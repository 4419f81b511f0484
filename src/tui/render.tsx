import { render } from 'ink';
import { ListenApp, type ListenAppProps } from './listen-app.js';

/** The terminal the view draws on: the command's streams and its interrupts (the CLI's io fits). */
export interface Terminal {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  stdin: NodeJS.ReadableStream;
  /** Calls `listener` on SIGTERM (Ctrl+C is a key in the view); returns the function that stops listening. */
  onInterrupt(listener: () => void): () => void;
}

/**
 * Draws the listen TUI on `terminal` until the user quits, `closed` settles (the stream ended) or
 * an interrupt arrives; the caller then says why. Imported lazily by the command.
 */
export async function renderListen(terminal: Terminal, props: ListenAppProps & { closed: Promise<unknown> }): Promise<void> {
  const { closed, ...appProps } = props;
  const instance = render(<ListenApp {...appProps} />, {
    /* eslint-disable @typescript-eslint/no-unsafe-type-assertion -- ink types its streams as a TTY's; it calls write() and reads columns, which a command's io gives */
    stdout: terminal.stdout as NodeJS.WriteStream,
    stderr: terminal.stderr as NodeJS.WriteStream,
    stdin: terminal.stdin as NodeJS.ReadStream,
    /* eslint-enable @typescript-eslint/no-unsafe-type-assertion */
    exitOnCtrlC: false,
    // The global console writes to the process's terminal: routed around the view only when it draws there.
    patchConsole: terminal.stdout === process.stdout,
  });
  const stopListening = terminal.onInterrupt(() => instance.unmount());
  void closed.then(() => instance.unmount());
  try {
    await instance.waitUntilExit();
  } finally {
    stopListening();
  }
}
