import { EventEmitter } from 'node:events';
import type { WebhookStreamEvent, WebhookListenerEnded, WebhookListenerReplaced } from '../contract/webhook-stream.js';

/**
 * What the emulator's engines announce. Printers, the TUI and the control plane's live stream
 * are consumers; engines never print.
 */
export interface BusEvents {
  /** One line of the request log (`scanctl logs tail`). */
  request: [entry: RequestLogEntry];
  /** A webhook delivery changed (attempt started, finished, exhausted, resent). */
  delivery: [event: WebhookStreamEvent];
  /** A `webhook listen --forward` took over an app from the listener it names. */
  'listener-replaced': [event: WebhookListenerReplaced];
  /** A state reset or import could not keep a listener (CHOICE-30): its stream says why and ends. */
  'listener-ended': [event: WebhookListenerEnded];
  /** A listener's stream ended and its forward URL no longer applies. */
  'listener-detached': [listenerId: string];
}

export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key?: string;
  env?: 'test' | 'live';
  app_id?: string;
  error_code?: string;
}

export class Bus extends EventEmitter<BusEvents> {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}
