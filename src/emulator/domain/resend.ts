import { ApiError } from '../../contract/errors.js';
import { resendEvent, ResendError } from '../../webhooks/outbox.js';
import type { StateContext } from './state-context.js';

/** Queues a resend of the event and returns the new delivery's id; a refusal is the API's error. */
export function resendOrRefuse(ctx: StateContext, eventId: string): string {
  try {
    return resendEvent(ctx.store, ctx.ids, ctx.clock.now(), eventId);
  } catch (error) {
    if (!(error instanceof ResendError)) throw error;
    const codes = {
      no_event: 'resource_missing',
      redacted: 'event_deleted',
      no_url: 'webhook_url_missing',
      results_off: 'results_delivery_disabled',
    } as const;
    const code = codes[error.reason];
    throw new ApiError(code, error.message, error.reason === 'no_event' ? 'event_id' : undefined);
  }
}
