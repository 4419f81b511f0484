import type { Bus } from '../emulator/bus.js';
import type { EmulatorConfig } from '../emulator/config.js';
import type { ClockContext } from '../emulator/domain/clock.js';
import type { StateContext } from '../emulator/domain/state-context.js';
import type { OpenStreams } from '../emulator/http/sse.js';
import type { StorageLogger } from '../store/storage-condition.js';
import type { WebhookEngine } from '../webhooks/engine.js';

/**
 * What the console uses of the emulator: its state, the clock moves its Clock page plays, and the
 * parts its pages read or follow. createEmulator hands it its whole context, which has these; the
 * console's types name this, not the emulator's context, so they do not loop back through the
 * emulator's HTTP layer.
 */
export interface ConsoleContext extends StateContext, ClockContext {
  config: EmulatorConfig;
  /** The live Deliveries page follows its events. */
  bus: Bus;
  /** A stop ends the live page's stream with the rest. */
  streams: OpenStreams;
  logger: StorageLogger;
  /** The Clock page shows the next retry due. */
  webhooks: Pick<WebhookEngine, 'nextDueAt'>;
}
