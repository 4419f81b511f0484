import { mountConsole } from '../console/mount.js';
import { mountSimulateRoute } from './simulate-route.js';
import type { z } from 'zod';
import { CHOICES } from '../contract/choices.js';
import type { StateFile } from '../contract/state.js';
import { parseFixtures, type Fixtures } from '../emulator/fixture-file.js';
import { startEmulatorServer } from '../emulator/server.js';
import { sanitize } from '../emulator/domain/request-log.js';
import { testCredentials } from '../emulator/test-credentials.js';
import type { Logger } from '../util/logger.js';
import { packageVersion } from '../util/package-root.js';
import { createHandle } from './create-handle.js';
import type { EmulatorHandle } from './handle.js';
import { timeOf } from './values.js';

/** The fixtures format (`fixtures/default.json`), as an object: defaults may be left out. */
export type FixturesInput = z.input<typeof Fixtures>;

export interface StartEmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A SQLite file, or ':memory:' (the default). */
  db?: string;
  /** A fixture file, or the fixtures as an object. Default: the bundled fixtures/default.json. */
  fixtures?: string | FixturesInput;
  /** Where the virtual clock starts, and whether it moves only when told (advance, set). */
  clock?: { start?: string | Date; frozen?: boolean };
  /** Every id and token drawn from this seed: the same calls give the same bytes (tests only). */
  seed?: number;
  /** Start from an exported state (`exportState()`, `scanctl state export`). */
  state?: StateFile;
  /** Requests per second per secret key before 429 rate_limited. Default 0: off, so tests never trip it. */
  rateLimitPerSecond?: number;
  /** How long one webhook attempt may take, real ms (default 10 s). */
  webhookAttemptTimeoutMs?: number;
  /** Default true: print nothing. False prints each request's log line on stderr. */
  quiet?: boolean;
  /**
   * Where the emulator's warnings (a webhook attempt that threw) and internal errors go. Default:
   * nowhere, so a test suite sees nothing it did not ask for; `streamLogger(process.stderr)` prints them.
   */
  logger?: Logger;
}

/**
 * Starts the emulator in this process and resolves once it serves: every route of the service
 * (backend, device, portal) and the control plane, on its own database and virtual clock.
 * Emulators are independent of each other; `close()` frees the port and leaves nothing running.
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  const inline = typeof options.fixtures === 'object' ? parseFixtures(JSON.stringify(options.fixtures), 'fixtures') : null;
  const server = await startEmulatorServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    dbPath: options.db ?? ':memory:',
    fixturesPath: typeof options.fixtures === 'string' ? options.fixtures : null,
    inlineFixtures: inline,
    reset: false,
    rateLimitPerSecond: options.rateLimitPerSecond ?? CHOICES.testRunRateLimitPerSecond,
    version: packageVersion(),
    // The web console at `/`, as serve has it.
    mounts: [mountConsole, mountSimulateRoute],
    stateFile: null,
    seed: options.seed ?? null,
    clock: {
      startMs: options.clock?.start === undefined ? null : timeOf(options.clock.start, 'clock.start'),
      frozen: Boolean(options.clock?.frozen),
    },
    initialState: options.state ?? null,
    webhookAttemptTimeoutMs: options.webhookAttemptTimeoutMs,
    logger: options.logger,
  });
  try {
    // Resolves when requests are answered at once: the HTTP adapter loaded too.
    await server.requestListener.warm();
    const { emulator } = server;
    const credentials = testCredentials(emulator);
    if (!credentials) throw new Error('startEmulator: the fixtures hold no app');
    const { appId, secretKey, publishableKey, webhookSecret } = credentials;
    if (!secretKey || !publishableKey)
      throw new Error(`startEmulator: the fixtures give ${appId} no test keys (keys.test.secret and keys.test.publishable)`);
    if (options.quiet === false) {
      emulator.bus.on('request', (entry) => {
        const line = sanitize(entry, 0);
        process.stderr.write(
          `scanctl ${line.method} ${line.path} ${line.status}${line.error_code ? ` ${line.error_code}` : ''} ${line.latency_ms} ms\n`,
        );
      });
    }
    return createHandle(server, { appId, secretKey, publishableKey, webhookSecret });
  } catch (error) {
    await server.close();
    throw error;
  }
}
