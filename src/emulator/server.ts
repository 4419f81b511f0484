import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { listeningPort } from '../util/listening-port.js';
import { openDatabase, loadSecretBox, resetDatabase, type Db } from '../store/db.js';
import { answerClientErrors, createEmulatorHttpServer, emulatorRequestListener, type EmulatorRequestListener } from './http/node-server.js';
import { InFlightRequests, type SettleReport } from './http/in-flight.js';
import { limitConnections, maxConnectionsFor, openFileLimit } from './http/connection-limits.js';
import { CHOICES } from '../contract/choices.js';
import { clearServeState, writeServeState } from './serve-state.js';
import { createEmulator, type Emulator, type Mount } from './create-emulator.js';
import { startSweeper } from './sweeper.js';
import { seedAtStart } from './seed.js';
import type { ClockSetup } from './clock-and-ids.js';
import type { Fixtures } from './fixture-file.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import type { StateFile } from '../contract/state.js';
import { importState } from './state/import.js';
import { errorMessage, errorCode } from '../util/caught.js';

export interface ServeOptions {
  port: number;
  host: string;
  dbPath: string;
  /** An explicit fixture file is upserted on every start; without one, the bundled file seeds a fresh database. */
  fixturesPath: string | null;
  reset: boolean;
  rateLimitPerSecond: number;
  version: string;
  /** Host names admitted besides loopback (DNS rebinding protection, docs/security.md). */
  allowedHosts?: readonly string[];
  /** Where to record the running server for other scanctl commands (null: nowhere). */
  stateFile: string | null;
  /** Fixtures given as an object instead of a file (startEmulator): upserted on start, kept in memory. */
  inlineFixtures?: Fixtures | null;
  /** `--seed`: every id and token from this seed. */
  seed?: number | null;
  /** `--clock-start`, `--frozen-clock`. */
  clock?: ClockSetup;
  /** `--import`: start from this exported state (it replaces what the database and fixtures held). */
  initialState?: StateFile | null;
  /** CHOICE-39: open connections at most (default: from the file limit, maxConnectionsFor). */
  maxConnections?: number;
  /** The webhook dispatcher's per-attempt limit, real ms. */
  webhookAttemptTimeoutMs?: number;
  /**
   * A server already listening on `host` (exec binds first, to start its command while the
   * emulator loads). No request listener is attached to it: the caller attaches `requestListener`.
   */
  boundServer?: Server;
  /** Faces mounted beside the API (serve and startEmulator: the web console). */
  mounts?: ReadonlyArray<Mount>;
  /** Where warnings and internal errors go (serve: its stderr; default: nowhere). */
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  port: number;
  emulator: Emulator;
  fixturesLoaded: string | null;
  /** Why .scanctl/serve.json could not be written (commands then need --base-url), or null. */
  stateFileError: string | null;
  /** The emulator as a node:http request listener (attached already, unless started on a bound server). */
  requestListener: EmulatorRequestListener;
  /**
   * CHOICE-35: stops taking requests, ends every stream with a last event, lets what is in flight
   * finish for up to `graceMs` (then answers it 503 service_stopping), stops the dispatcher, commits
   * what is queued, and closes the database. Resolves with what happened to the requests in flight.
   */
  close(options?: { graceMs?: number }): Promise<SettleReport>;
}

export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use`);
  }
}

export async function startEmulatorServer(options: ServeOptions): Promise<RunningServer> {
  // The port first: one in use is refused before anything is written (.scanctl/scanctl.db). Requests
  // that come before the emulator is ready wait for it.
  let held: ReturnType<typeof holdRequests> | null = null;
  let listening: Server | null = options.boundServer ?? null;
  if (!listening) {
    held = holdRequests();
    listening = createEmulatorHttpServer(held.listener);
  }
  limitConnections(listening, options.maxConnections ?? maxConnectionsFor(openFileLimit()), options.logger ?? SILENT_LOGGER);
  if (held) await listen(listening, options.port, options.host);
  const dbPath = options.dbPath === ':memory:' ? ':memory:' : resolve(options.dbPath);
  let db: Db;
  try {
    db = openDatabase(dbPath, { exclusive: true, reset: options.reset });
  } catch (error) {
    if (held) listening.close();
    throw error;
  }
  try {
    if (options.reset) resetDatabase(db, dbPath);
    const box = loadSecretBox(dbPath);
    const emulator = createEmulator({
      db,
      box,
      seed: options.seed ?? null,
      clockSetup: options.clock,
      logger: options.logger,
      mounts: options.mounts,
      config: { version: options.version, inlineFixtures: options.inlineFixtures ?? null, rateLimitPerSecond: options.rateLimitPerSecond },
    });
    const fixturesLoaded = seedAtStart(emulator, options.fixturesPath, options.inlineFixtures ?? null);
    if (options.initialState) importState(emulator, options.initialState);
    emulator.readiness.fixturesLoaded = true;
    if (options.webhookAttemptTimeoutMs !== undefined) emulator.webhooks.attemptTimeoutMs = options.webhookAttemptTimeoutMs;

    const inFlight = new InFlightRequests();
    const requestListener = inFlight.wrap(emulatorRequestListener(emulator.app.fetch, emulator.logger));
    const server = listening;
    if (options.boundServer) answerClientErrors(server);
    const port = listeningPort(server);
    emulator.config.port = port;
    emulator.config.allowedHosts = options.allowedHosts ?? [];
    const url = `http://${urlHost(options.host)}:${port}`;
    // Only for discovery: a folder that cannot hold it (read-only, .scanctl a file) does not stop an in-memory run.
    let stateFileError: string | null = null;
    if (options.stateFile) {
      try {
        writeServeState(options.stateFile, { pid: process.pid, base_url: url, db: dbPath });
      } catch (error) {
        stateFileError = errorCode(error) ?? errorMessage(error);
      }
    }
    held?.open(server, requestListener);
    // Webhook dispatch in real time; deliveries in flight at a crash are pending and due in the database: sent at once.
    emulator.webhooks.start();
    const stopSweeper = startSweeper(emulator);

    let closing: Promise<SettleReport> | null = null;
    const stop = async (graceMs: number): Promise<SettleReport> => {
      stopSweeper();
      // No new connections; the server's callback comes once every connection has closed.
      const allClosed = new Promise<void>((done) => server.close(() => done()));
      emulator.streams.endAll('server_stopping');
      const [report] = await Promise.all([inFlight.settle(server, graceMs), emulator.scheduler.stop(), emulator.webhooks.stop()]);
      // Attempt records and mints queued in this turn are committed before the database closes.
      emulator.store.groupCommit.flush();
      server.closeAllConnections();
      await allClosed;
      if (options.stateFile) clearServeState(options.stateFile);
      db.close();
      return report;
    };
    return {
      url,
      port,
      emulator,
      fixturesLoaded,
      stateFileError,
      requestListener,
      close(closeOptions = {}) {
        return (closing ??= stop(closeOptions.graceMs ?? CHOICES.stopGraceMs));
      },
    };
  } catch (error) {
    // Never leave a port open over a closed database (every request would fail with 500); exec closes its own.
    if (held) {
      listening.closeAllConnections();
      listening.close();
    }
    db.close();
    throw error;
  }
}

/**
 * The host of the URL this machine's clients use: a wildcard bind (a container's 0.0.0.0) is
 * reached on loopback, the name the Host check admits without --allowed-host.
 */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** A request listener that holds requests until `open` hands them, and every later one, to the emulator's. */
function holdRequests() {
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => void waiting.push([req, res]);
  return {
    listener,
    open(server: Server, emulator: RequestListener) {
      server.off('request', listener);
      server.on('request', emulator);
      for (const [req, res] of waiting.splice(0)) emulator(req, res);
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolvePort(typeof address === 'object' && address ? address.port : port);
    });
  });
}
