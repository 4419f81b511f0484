import type { StreamEnd } from '../../../client/webhook-stream.js';
import type { ListenerReplacedEvent } from '../../../contract/webhooks.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/** The one line `webhook listen` ends with when its stream ended on the emulator's side (the live view and plain mode alike). */
export function streamEndError(end: StreamEnd): UserError | null {
  if (end.reason === 'replaced') return replacedError(end.event);
  if (end.reason === 'lost') {
    return new UserError('the emulator stopped: the delivery stream closed', { exitCode: EXIT.connection });
  }
  return null;
}

function replacedError(event: ListenerReplacedEvent): UserError {
  const by = event.replaced_by;
  return new UserError(
    `replaced by another \`webhook listen\` (${by.id}): since ${by.created_at} ${event.app_id}'s deliveries${by.events ? ` of ${by.events.join(', ')}` : ''} go to ${by.forward_url}`,
    { exitCode: EXIT.listenerReplaced },
  );
}
