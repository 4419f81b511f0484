import { EXIT, type ExitCode } from './exit-codes.js';

/** A problem the user can fix: one line of message, an optional hint of what to try next. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly options: {
      hint?: string;
      exitCode?: ExitCode;
      /** The error code under --json (default: from the exit code). */
      code?: string;
      /** The command's own --json output already reports this failure (a check report): no second object on stdout. */
      reportedInOutput?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'UserError';
  }

  get exitCode(): ExitCode {
    return this.options.exitCode ?? EXIT.usage;
  }
}

/** Not a failure of scanctl: the command ends with this exit code (`exec` passes on its child's), printing nothing more. */
export class ExitWith extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
    this.name = 'ExitWith';
  }
}
