import type { Fixtures } from './fixture-file.js';

/** How createEmulator was configured (serve's flags, startEmulator's options); `port` and `allowedHosts` are set once serve listens. */
export interface EmulatorConfig {
  /** CHOICE-2: requests per second per secret key; 0 is off. */
  rateLimitPerSecond: number;
  maxBodyBytes: number;
  /** The fixture file the database was seeded from (see seed.ts). */
  fixturesPath: string | null;
  defaultAppId: string | null;
  version: string;
  /** Check every answer against its operation's declared statuses and schemas (tests turn this on). */
  validateResponses: boolean;
  /** `--seed`: ids and tokens are drawn from it, and deliveries go out one at a time (see clock-and-ids.ts). */
  seed: number | null;
  /** Fixtures given as an object (startEmulator), kept in memory for reset and fixture keys: never written to the database. */
  inlineFixtures: Fixtures | null;
  /** The port serve listens on (the Host check compares it); null in-process. */
  port: number | null;
  /** Host names admitted besides loopback (`serve --allowed-host`); see http/host-guard.ts. */
  allowedHosts: readonly string[];
}
