import type { WebhookStreamEvent } from '../contract/webhook-stream.js';

/** The live view is drawn for at least this many columns; a narrower terminal wraps. */
export const MIN_COLUMNS = 80;

export interface Column {
  id: 'event' | 'type' | 'scan' | 'attempt' | 'last' | 'state' | 'latency' | 'next' | 'answer';
  title: string;
  width: number;
}

const MARKER = 2;
const REQUIRED: readonly Column[] = [
  { id: 'event', title: 'EVENT', width: 25 },
  // 'completed*' (a resend) and a space.
  { id: 'type', title: 'TYPE', width: 11 },
  { id: 'attempt', title: 'TRY', width: 6 },
  { id: 'last', title: 'LAST', width: 5 },
  { id: 'state', title: 'STATE', width: 10 },
  { id: 'next', title: 'NEXT TRY', width: 15 },
];
const LATENCY: Column = { id: 'latency', title: 'LATENCY', width: 8 };
const SCAN: Column = { id: 'scan', title: 'SCAN', width: 21 };
const MIN_ANSWER = 5;

/**
 * The columns for a terminal `columns` wide: the required ones always; latency, then the scan id
 * when they fit; the error or the receiver's answer takes the rest. One character is left free so
 * that a full line never wraps.
 */
export function fitColumns(columns: number): Column[] {
  const usable = Math.max(MIN_COLUMNS, columns) - 1;
  const required = MARKER + REQUIRED.reduce((sum, c) => sum + c.width, 0);
  const picked = [...REQUIRED];
  let rest = usable - required;
  for (const optional of [LATENCY, SCAN]) {
    if (rest - optional.width < MIN_ANSWER) break;
    rest -= optional.width;
    // Latency sits before NEXT, the scan after TYPE, as in `webhook deliveries`.
    picked.splice(optional.id === 'scan' ? 2 : picked.length - 1, 0, optional);
  }
  return [...picked, { id: 'answer', title: 'ANSWER', width: Math.max(MIN_ANSWER, rest) }];
}

/** The list rows that fit: `rows` of the terminal less the lines around the list (ink redraws cleanly only below the height). */
export function listHeight(rows: number, around: number): number {
  return Math.max(3, rows - around - 1);
}

/**
 * The first row of the visible window: kept where it was unless the selection left it, and never
 * past the end (so the window stays full).
 */
export function windowStart(previous: number, selected: number, count: number, size: number): number {
  let start = Math.min(previous, Math.max(0, count - size));
  if (selected < start) start = selected;
  else if (selected >= start + size) start = selected - size + 1;
  return Math.max(0, start);
}

const SHORT_TYPE: Record<string, string> = { 'scan.completed': 'completed', 'scan.failed': 'failed', 'scan.results_available': 'results' };

/** MM-DD HH:MM:SS of an ISO time on the emulator clock. */
export const shortTime = (iso: string | null) => (iso ? `${iso.slice(5, 10)} ${iso.slice(11, 19)}` : '');

/** What a delivery's latest event says, in a word: an exhausted delivery is marked as such. */
export function stateOf(e: WebhookStreamEvent): string {
  if (e.outcome === 'failed') return e.attempt >= e.max_attempts ? 'EXHAUSTED' : 'failed';
  return { pending: 'queued', in_flight: 'sending', succeeded: 'delivered', retrying: 'retrying', cancelled: 'cancelled' }[e.outcome];
}

export const stateColor = (state: string) =>
  state === 'delivered'
    ? 'green'
    : state === 'EXHAUSTED' || state === 'failed' || state === 'cancelled'
      ? 'red'
      : state === 'retrying'
        ? 'yellow'
        : 'cyan';

/** One line of text: newlines and runs of spaces folded, so an answer body fits a cell. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The error, or when it only repeats the status, the start of the receiver's answer. */
function answerOf(e: WebhookStreamEvent): string {
  const excerpt = e.response_excerpt ? oneLine(e.response_excerpt) : '';
  if (e.error && e.error !== `HTTP ${e.status}`) return excerpt ? `${e.error}: ${excerpt}` : e.error;
  return e.outcome === 'succeeded' ? '' : excerpt;
}

export function cellText(column: Column['id'], e: WebhookStreamEvent): string {
  switch (column) {
    case 'event':
      return e.event_id;
    case 'type':
      return (SHORT_TYPE[e.event_type] ?? e.event_type) + (e.origin === 'resend' ? '*' : '');
    case 'scan':
      return e.scan_id;
    case 'attempt':
      return `${e.attempt}/${e.max_attempts}`;
    case 'last':
      return e.object === 'delivery.attempt_finished' ? (e.status === null ? '---' : String(e.status)) : '';
    case 'state':
      return stateOf(e);
    case 'latency':
      return e.latency_ms === null ? '' : `${e.latency_ms} ms`;
    case 'next':
      return shortTime(e.next_attempt_at);
    case 'answer':
      return answerOf(e);
  }
}

/**
 * The sends webhook chaos --duplicate added to a delivery's attempts (WH-8), each named as a send of
 * its attempt with its own answer: `dup send #1: 200`. Empty when there is none.
 */
export function duplicateSends(attempts: readonly WebhookStreamEvent[]): string {
  const sends = attempts.flatMap((a) => (a.duplicate_send ? [`#${a.attempt}: ${a.duplicate_send.status ?? '---'}`] : []));
  return sends.length === 0 ? '' : `dup send${sends.length === 1 ? '' : 's'} ${sends.join(', ')}`;
}

/** Pads or cuts `text` to `width`, keeping one space before the next column. */
export function fit(text: string, width: number, last = false): string {
  const room = last ? width : width - 1;
  const cut = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
  return last ? cut : cut.padEnd(width);
}
