import type { EmulatorContext } from '../emulator/context.js';
import type { TimerSource } from '../emulator/scheduler.js';

/** The webhook dispatcher: claims due deliveries on the emulator clock and sends them (issue 4). */
export interface WebhookEngine extends TimerSource {
  /** Starts real-time dispatching (serve only; tests drive it through the scheduler). */
  start(): void;
  stop(): Promise<void>;
  /** Wakes the dispatcher when new work was queued. */
  kick(): void;
}

export function createWebhookEngine(ctx: EmulatorContext): WebhookEngine {
  void ctx;
  return {
    nextDueAt: () => null,
    runDue: async () => undefined,
    start: () => undefined,
    stop: async () => undefined,
    kick: () => undefined,
  };
}
