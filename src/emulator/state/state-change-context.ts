import type { WebhookEngine } from '../../webhooks/engine.js';
import type { Bus } from '../bus.js';
import type { EmulatorConfig } from '../config.js';
import type { StateContext } from '../domain/state-context.js';
import type { Scheduler } from '../scheduler.js';

/**
 * What replacing the whole state (reset, import, a checkpoint's restore) works on: the state, the
 * fixture file it re-seeds from, the listeners it tells, the scheduler it waits for (no timer plays
 * during a restore) and the dispatcher it wakes for what the new state has due.
 */
export interface StateChangeContext extends StateContext {
  config: EmulatorConfig;
  bus: Bus;
  scheduler: Pick<Scheduler, 'exclusive'>;
  webhooks: Pick<WebhookEngine, 'kick'>;
}
