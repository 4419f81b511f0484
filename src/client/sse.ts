import type { HttpAnswer } from './node-request.js';

/** One server-sent event: its name (`message` when none was given), data and id. */
export interface ServerSentEvent<T = string> {
  event: string;
  data: T;
  id?: string;
}

/**
 * Reads a text/event-stream body to its end (the WHATWG rules that matter here: `event:`, `data:`
 * lines joined by newlines, `id:`, comments, CRLF or LF), calling `onEvent` for each event with data.
 * The one reader of every stream scanctl follows (deliveries, the request log).
 */
export async function readServerSentEvents(response: HttpAnswer, onEvent: (event: ServerSentEvent) => void): Promise<void> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let id: string | undefined;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) });
    event = '';
    data = [];
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  };
  // for await cancels (a ReadableStream) or destroys (a node stream) a body left early: an error in onEvent.
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r\n|\n|\r/)) >= 0) {
      // A CR at the very end may be the first half of a CRLF still on its way.
      if (buffer[end] === '\r' && end === buffer.length - 1) break;
      const next = buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1;
      line(buffer.slice(0, end));
      buffer = buffer.slice(next);
    }
  }
}
