/**
 * Where the emulator and the webhook engine report what went wrong without a caller to tell: the
 * host decides. `serve` prints to its stderr; `startEmulator` and tests are silent unless given one.
 */
export interface Logger {
  /** Something the engine recovered from (an attempt threw, a dispatch pass failed). */
  warn(message: string): void;
  /** A condition the serve log says in one line of its own (`storage: ...`, `connections: ...`). */
  info(line: string): void;
  /** An error of the emulator's own (a bug): the client got the spec's internal_error body. */
  error(message: string, error: unknown): void;
}

export const SILENT_LOGGER: Logger = { warn: () => undefined, info: () => undefined, error: () => undefined };

/** Lines on a stream (serve's stderr): warnings as one line, errors with their stack. */
export function streamLogger(stream: { write(text: string): unknown }): Logger {
  return {
    warn: (message) => void stream.write(`scanctl: warning: ${message}\n`),
    info: (line) => void stream.write(`scanctl: ${line}\n`),
    error: (message, error) =>
      void stream.write(`scanctl: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  };
}
