/** The CLI's exit codes; the table in docs/emulator.md mirrors this file. */
export const EXIT = {
  ok: 0,
  /** Something unexpected: a bug in scanctl. */
  internal: 1,
  /** `health`: not ready, or not reachable (what a container's HEALTHCHECK reads as unhealthy). */
  unhealthy: 1,
  /** Bad flags, arguments, files or fixtures. */
  usage: 2,
  /** The service (or emulator) answered with an error body. */
  api: 3,
  /** The base URL could not be reached. */
  connection: 4,
  /** A wait ended without success: a delivery exhausted its attempts, or the timeout passed. */
  waitFailed: 5,
  /** A check failed: a signature did not match, a receiver failed conformance, a conform rule diverged or a diff differs. */
  checkFailed: 6,
  /** `webhook listen`: another `webhook listen --forward` for the same app took over. */
  listenerReplaced: 7,
  /** `webhook listen`: a state reset or import removed its app or changed the app's signing secret (CHOICE-30). */
  listenerEnded: 8,
  /** Stopped by Ctrl+C (128 + SIGINT), after saying how far it got. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
