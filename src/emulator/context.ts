import type { IncomingMessage } from 'node:http';
import type { StorageLogger } from '../store/storage-condition.js';
import type { Bus } from './bus.js';
import type { StateContext } from './domain/state-context.js';
import type { Fixtures } from './fixture-file.js';
import type { RateLimiter } from './domain/rate-limit.js';
import type { RequestLogBuffer } from './domain/request-log.js';
import type { Scheduler } from './scheduler.js';
import type { OpenStreams } from './http/sse.js';
import type { WebhookEngine } from '../webhooks/engine.js';

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

/** Everything a handler needs, built once by createEmulator: the state (StateContext) and the parts around it. */
export interface EmulatorContext extends StateContext {
  bus: Bus;
  config: EmulatorConfig;
  scheduler: Scheduler;
  rateLimiter: RateLimiter;
  /** The webhook dispatcher; registered with the scheduler so clock moves play its retries. */
  webhooks: WebhookEngine;
  /** The recent request log lines and their live subscribers (`scanctl logs tail`). */
  requestLog: RequestLogBuffer;
  /** What the health check reports beside the database and the dispatcher; set once seeding is done (server.ts). */
  readiness: { fixturesLoaded: boolean };
  /** The server-sent event streams open now (a stop ends each with a last event). */
  streams: OpenStreams;
  /** Where warnings and internal errors go: the host's (serve prints them), silent by default; with the storage log its HTTP side and dispatcher share. */
  logger: StorageLogger;
}

/** Hono's per-request variables. */
export interface AppEnv {
  Variables: {
    /** Filled by authentication so the request log can name the key and environment. */
    logKey?: string;
    logEnv?: 'test' | 'live';
    logAppId?: string;
    /** Set by errorResponse: the error body's code, for the request log. */
    errorCode?: string;
    /** The JSON body's text as received, for fields kept exactly as sent (WH-3). */
    jsonText?: string;
    /** Set by limitBodies: the socket to read the body from (its length already checked). */
    bodyFrom?: IncomingMessage;
  };
}
