import type { StreamEnd } from '../../../client/webhook-stream.js';
import type { WebhookListenerEnded, WebhookListenerReplaced } from '../../../contract/webhook-stream.js';
import { UserError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/** The one line `webhook listen` ends with when its stream ended on the emulator's side (the live view and plain mode alike). */
export function streamEndError(end: StreamEnd): UserError | null {
  if (end.reason === 'replaced') return replacedError(end.event);
  if (end.reason === 'ended') return endedError(end.event);
  if (end.reason === 'lost' || (end.reason === 'dropped' && end.event.reason === 'server_stopping')) {
    return new UserError('the emulator stopped: the delivery stream closed', { exitCode: EXIT.connection });
  }
  if (end.reason === 'dropped') {
    return new UserError('the emulator dropped this listener: it fell too far behind its delivery stream (CHOICE-37)', {
      exitCode: EXIT.connection,
      hint: 'run it again; a terminal that is not read (a paused pipe) makes a listener fall behind',
    });
  }
  return null;
}

function replacedError(event: WebhookListenerReplaced): UserError {
  const by = event.replaced_by;
  return new UserError(
    `replaced by another \`webhook listen\` (${by.id}): since ${by.created_at} ${event.app_id}'s deliveries${by.events ? ` of ${by.events.join(', ')}` : ''} go to ${by.forward_url}`,
    { exitCode: EXIT.listenerReplaced },
  );
}

/** CHOICE-30: a reset, import or restore keeps a listener unless what it printed no longer holds. */
function endedError(event: WebhookListenerEnded): UserError {
  const what = { state_reset: '`state reset`', state_import: '`state import`', state_restore: '`state restore`' }[event.cause];
  const why =
    event.reason === 'app_removed'
      ? `${event.app_id} no longer exists`
      : `${event.app_id} now signs with another secret than the one printed`;
  return new UserError(`stopped listening: a ${what} at ${event.time} changed the state under this listener (${why})`, {
    exitCode: EXIT.listenerEnded,
    hint: 'start `scanctl webhook listen` again',
  });
}
