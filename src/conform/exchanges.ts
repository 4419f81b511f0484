import { setTimeout as sleep } from 'node:timers/promises';
import type { WebFetch } from '../client/node-request.js';
import { CONTROL_PREFIX } from '../contract/control.js';

/** One request of a probe to the target's public routes and what came back (the body as text). */
export interface Exchange {
  rule: string;
  method: string;
  /** Path and query. */
  path: string;
  status: number | null;
  body: string;
}

/**
 * The fetch every probe's clients use: it keeps each answer of the public routes for the
 * snapshot, attributed to the probe running, and spaces those requests so the run stays under
 * `maxPerSecond` (the control plane of an emulator is neither kept nor spaced: it is not the service).
 */
export class ExchangeLog {
  readonly exchanges: Exchange[] = [];
  /** The rule of the probe running now. */
  rule = '';
  /** Requests sent to the public routes. */
  sent = 0;
  private nextSlot = 0;
  /** While true, requests are not spaced (the one probe that measures the rate limit). */
  unpaced = false;

  constructor(
    private readonly maxPerSecond: number,
    private readonly inner: WebFetch = (input, init) => fetch(input, init),
  ) {}

  readonly fetch: WebFetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const isPublic = !url.pathname.startsWith(CONTROL_PREFIX);
    if (isPublic && !this.unpaced) await this.waitForSlot();
    const response = await this.inner(input, init);
    if (!isPublic) return response;
    this.sent += 1;
    const body = await response.clone().text();
    this.exchanges.push({
      rule: this.rule,
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname + url.search,
      status: response.status,
      body,
    });
    return response;
  };

  /** Drops what was kept from `mark` (an earlier `exchanges.length`) on: answers that are not the rule's record. */
  discardSince(mark: number): void {
    this.exchanges.splice(mark);
  }

  private async waitForSlot(): Promise<void> {
    const gap = 1000 / this.maxPerSecond;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + gap;
    if (slot > now) await sleep(slot - now);
  }
}
