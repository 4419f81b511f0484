import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { openDatabase, loadSecretBox, type Db } from '../store/db.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { createEmulatorHttpServer } from './http/below-router.js';
import { clearServeState, writeServeState } from './serve-state.js';
import { createEmulator, type Emulator } from './create-emulator.js';
import { startSweeper } from './sweeper.js';
import { BUNDLED_FIXTURES_FILE, followStoredFixtures, seedFixtures } from './seed.js';

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
}

export interface RunningServer {
  url: string;
  port: number;
  emulator: Emulator;
  fixturesLoaded: string | null;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly host: string, readonly port: number) {
    super(`port ${port} on ${host} is already in use`);
  }
}

/** Drops every table so the migrations build a fresh schema, under the lock already held. */
function resetDatabase(db: Db): void {
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.pragma('user_version = 0');
  })();
  db.pragma('foreign_keys = ON');
  db.transaction(() => {
    for (const migration of MIGRATIONS) migration.up(db);
    db.pragma(`user_version = ${MIGRATIONS.at(-1)!.version}`);
  })();
}

export async function startEmulatorServer(options: ServeOptions): Promise<RunningServer> {
  const dbPath = options.dbPath === ':memory:' ? ':memory:' : resolve(options.dbPath);
  const db = openDatabase(dbPath, { exclusive: true });
  try {
    if (options.reset) resetDatabase(db);
    const box = loadSecretBox(dbPath);
    const emulator = createEmulator({ db, box, config: { version: options.version } });
    const fixturesLoaded = seed(emulator, options);
    followStoredFixtures(emulator);
    emulator.rateLimiter.limitPerSecond = options.rateLimitPerSecond;
    emulator.config.rateLimitPerSecond = options.rateLimitPerSecond;

    const server = createEmulatorHttpServer(emulator.app.fetch);
    server.keepAliveTimeout = 5_000;
    const port = await listen(server, options.port, options.host);
    emulator.config.port = port;
    emulator.config.allowedHosts = options.allowedHosts ?? [];
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
    if (options.stateFile) writeServeState(options.stateFile, { pid: process.pid, base_url: url, db: dbPath });
    // Webhook dispatch in real time; deliveries left in flight by a crash go back to pending, due now.
    emulator.webhooks.start();
    const stopSweeper = startSweeper(emulator);

    let closed = false;
    return {
      url,
      port,
      emulator,
      fixturesLoaded,
      async close() {
        if (closed) return;
        closed = true;
        stopSweeper();
        await emulator.webhooks.stop();
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
        if (options.stateFile) clearServeState(options.stateFile);
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Seeds a fresh database from the bundled fixtures, or upserts an explicitly named fixture file. */
function seed(emulator: Emulator, options: ServeOptions): string | null {
  const fresh = emulator.store.apps.all().length === 0;
  if (!fresh && options.fixturesPath === null) return null;
  const file = resolve(options.fixturesPath ?? BUNDLED_FIXTURES_FILE);
  seedFixtures(emulator, file);
  return file;
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

