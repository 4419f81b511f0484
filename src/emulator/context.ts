import type { StorageLogger } from '../store/storage-condition.js';
import type { Bus } from './bus.js';
import type { EmulatorConfig } from './config.js';
import type { StateContext } from './domain/state-context.js';
import type { RateLimiter } from './domain/rate-limit.js';
import type { RequestLogBuffer } from './domain/request-log.js';
import type { Scheduler } from './scheduler.js';
import type { OpenStreams } from './http/sse.js';
import type { WebhookEngine } from '../webhooks/engine.js';

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

// Their own modules, so that a part that needs only one of them does not import the whole context (and its types).
export type { EmulatorConfig } from './config.js';
export type { AppEnv } from './http/app-env.js';
