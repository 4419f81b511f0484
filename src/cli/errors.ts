import { EXIT, type ExitCode } from './exit-codes.js';

/** A problem the user can fix: one line of message, an optional hint of what to try next. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly options: { hint?: string; exitCode?: ExitCode; /** The error code under --json (default: from the exit code). */ code?: string } = {},
  ) {
    super(message);
    this.name = 'UserError';
  }

  get exitCode(): ExitCode {
    return this.options.exitCode ?? EXIT.usage;
  }
}
