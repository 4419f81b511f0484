import { mountConsole } from '../console/mount.js';
import { mountSimulateRoute } from '../testkit/simulate-route.js';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { readServeState } from '../emulator/serve-state.js';
import type { RunningServer } from '../emulator/server.js';
import type { SettleReport } from '../emulator/http/in-flight.js';
import type { Logger } from '../util/logger.js';
import { packageVersion } from '../util/package-root.js';
import { UserError } from './errors.js';
import { writeStateFile, type EmulatorRunOptions } from './emulator-flags.js';
import { errorMessage, errorCode } from '../util/caught.js';

export interface ListenOptions {
  port: number;
  host: string;
  db: string;
  fixtures: string | null;
  reset: boolean;
  /** Where `serve` records itself for the other commands (resolved against cwd); null for `exec`. */
  stateFile: string | null;
  /** The command's working folder. */
  cwd: string;
  allowedHosts?: readonly string[];
  /** A server already listening (exec): the caller attaches the emulator's request listener. */
  boundServer?: Server;
  /** CHOICE-39: SCANCTL_MAX_CONNECTIONS, else from the file limit. */
  maxConnections?: number;
  /** Where the emulator's warnings and internal errors go (the command's stderr). */
  logger: Logger;
}

/**
 * Starts the emulator for `serve` and `exec` (loaded with it, not with every command), turning
 * what the user can fix (a locked database, a port in use, bad fixtures, a state file this
 * emulator cannot take) into one line and exit 2.
 */
export async function startForCli(run: EmulatorRunOptions, listen: ListenOptions): Promise<RunningServer> {
  const { startEmulatorServer, PortInUseError } = await import('../emulator/server.js');
  const { DatabaseLockedError, DatabaseTooNewError } = await import('../store/db.js');
  const { DatabaseRefusedError } = await import('../store/open-checks.js');
  const { FixtureError } = await import('../emulator/fixture-file.js');
  const { ApiError } = await import('../contract/errors.js');
  try {
    return await startEmulatorServer({
      port: listen.port,
      host: listen.host,
      dbPath: listen.db,
      fixturesPath: listen.fixtures,
      reset: listen.reset,
      rateLimitPerSecond: run.rateLimitPerSecond,
      version: packageVersion(),
      // The web console at `/`: its code loads on the first console request, not at start-up.
      mounts: [mountConsole, mountSimulateRoute],
      stateFile: listen.stateFile === null ? null : resolve(listen.cwd, listen.stateFile),
      seed: run.seed,
      clock: run.clock,
      initialState: run.initialState,
      allowedHosts: listen.allowedHosts ?? [],
      boundServer: listen.boundServer,
      webhookAttemptTimeoutMs: run.webhookAttemptTimeoutMs ?? undefined,
      ...(listen.maxConnections === undefined ? {} : { maxConnections: listen.maxConnections }),
      logger: listen.logger,
    });
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      const other = readServeState(listen.cwd);
      throw new UserError(`${error.message}${other ? ` (pid ${other.pid}, ${other.base_url})` : ''}`, {
        hint: 'stop that server, or pick another file with --db (or --db :memory:)',
      });
    }
    if (error instanceof PortInUseError) throw new UserError(error.message, { hint: 'pass --port 0 to pick a free port' });
    if (error instanceof FixtureError) throw new UserError(`invalid fixtures: ${error.message}`);
    if (error instanceof DatabaseTooNewError) throw new UserError(error.message);
    if (error instanceof DatabaseRefusedError) throw new UserError(error.message, { hint: error.hint });
    if (error instanceof ApiError) throw new UserError(`cannot import the state: ${error.message}`);
    const { databaseOpenError } = await import('./database-errors.js');
    const databaseError = databaseOpenError(error, listen.db);
    if (databaseError) throw databaseError;
    throw error;
  }
}

/**
 * Once serve has printed its ready line (exec: opened its gate): the HTTP adapter loads (a request
 * that comes first waits; a failure to load is answered 500 on that request).
 */
export function nowServing(server: RunningServer): void {
  void server.requestListener.warm().catch(() => undefined);
}

/**
 * Stops the emulator a command started: first `--export-on-exit FILE` (the whole state, signing
 * secrets included, so that `--import FILE` resumes it anywhere), then the server, even when the export fails.
 */
export async function stopForCli(server: RunningServer, exportFile: string | null | undefined, graceMs?: number): Promise<SettleReport> {
  let exportError: Error | null = null;
  try {
    if (exportFile) await exportOnExit(server, exportFile);
  } catch (error) {
    exportError = error instanceof Error ? error : new Error(String(error));
  }
  const report = await server.close(graceMs === undefined ? {} : { graceMs });
  if (exportError) throw exportError;
  return report;
}

/** What a stop did with the requests in flight, for the stop line ('' when every one was answered). */
export function stopSummary(report: SettleReport): string {
  const parts = [`${report.answered} answered`];
  if (report.refused > 0) parts.push(`${report.refused} refused (503 service_stopping)`);
  if (report.cut > 0) parts.push(`${report.cut} streams cut`);
  return report.refused + report.cut === 0 ? '' : ` (requests in flight: ${parts.join(', ')})`;
}

async function exportOnExit(server: RunningServer, file: string): Promise<void> {
  const { exportState, serializeState } = await import('../emulator/state/export.js');
  try {
    writeStateFile(file, serializeState(exportState(server.emulator, { includeSecrets: true })));
  } catch (error) {
    throw new UserError(`cannot write ${file}: ${errorCode(error) ?? errorMessage(error)}`);
  }
}
