import { Box, Text } from 'ink';
import type { WebhookDeliveryDetail } from '../contract/webhooks.js';
import { fit, oneLine, shortTime } from './layout.js';
import type { DetailState } from './use-detail.js';

interface Line {
  text: string;
  color?: string;
  bold?: boolean;
}

/** `text` in rows of `width` (its own line breaks kept): nothing cut. */
function wrapLines(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0) rows.push('');
    for (let i = 0; i < line.length; i += width) rows.push(line.slice(i, i + width));
  }
  return rows;
}

/** Every line of a delivery's detail, nothing cut: what the detail scrolls through. */
function allDetailLines(d: WebhookDeliveryDetail, width: number): Line[] {
  const { head, attempts } = detailLines(d, width, Infinity);
  const rows = (line: Line) => wrapLines(line.text, width).map((text) => ({ ...line, text }));
  return [...head, ...attempts].flatMap(rows);
}

/** One delivery's detail: what it is and its request (headers, exact body); then its attempts with the receiver's answers. */
function detailLines(d: WebhookDeliveryDetail, width: number, bodyRows = 3): { head: Line[]; attempts: Line[] } {
  const exhausted = d.status === 'failed' && d.attempts >= d.max_attempts;
  const head: Line[] = [
    {
      text: `${d.id}  ${d.event_type}  ${exhausted ? 'EXHAUSTED' : d.status}  attempt ${d.attempts} of ${d.max_attempts}${d.next_attempt_at ? `, next ${shortTime(d.next_attempt_at)}` : ''}`,
      bold: true,
      ...(exhausted ? { color: 'red' } : {}),
    },
    { text: `POST ${d.request.url ?? '(no webhook URL)'}` },
    ...Object.entries(d.request.headers).map(([name, value]) => ({ text: `${name}: ${value}` })),
    { text: bodyRows === Infinity ? d.request.body : fit(d.request.body, width * bodyRows, true) },
    { text: '' },
  ];
  const attempts: Line[] = d.attempt_log.length === 0 ? [{ text: 'no attempt yet', color: 'gray' }] : [];
  for (const a of d.attempt_log) {
    const ok = a.status !== null && a.status >= 200 && a.status < 300;
    attempts.push({
      text: `#${a.number}${a.duplicate_send ? ' duplicate send' : ''} ${shortTime(a.started_at)}  ${a.status ?? '---'}  ${a.latency_ms === null ? '' : `${a.latency_ms} ms`}  ${a.error ?? ''}`.trimEnd(),
      ...(ok ? {} : { color: 'red' }),
    });
    if (a.response_excerpt) {
      const answer = `   answer: ${oneLine(a.response_excerpt)}`;
      attempts.push({ text: bodyRows === Infinity ? answer : fit(answer, width, true), color: 'gray' });
    }
  }
  return { head, attempts };
}

/** The lines that fit `height` rows of `width`: the head, then the newest attempts. */
function fitDetail({ head, attempts }: { head: Line[]; attempts: Line[] }, width: number, height: number): Line[] {
  const rowsOf = (line: Line) => Math.max(1, Math.ceil(line.text.length / width));
  const shown: Line[] = [];
  let budget = height;
  for (const line of head) {
    if (rowsOf(line) > budget) break;
    shown.push(line);
    budget -= rowsOf(line);
  }
  const tail: Line[] = [];
  for (let i = attempts.length - 1; i >= 0; i--) {
    const line = attempts[i]!;
    const reserve = i > 0 ? 1 : 0; // room for the "earlier lines" note
    if (rowsOf(line) + reserve > budget) {
      tail.unshift({ text: `... ${i + 1} earlier line${i === 0 ? '' : 's'} of attempts not shown`, color: 'gray' });
      break;
    }
    tail.unshift(line);
    budget -= rowsOf(line);
  }
  return [...shown, ...tail];
}

/**
 * The rows of the whole detail from `scroll` (clamped), in `height` rows, the last of which says
 * where the window is. Returns the clamped offset with them.
 */
function scrolledDetail(all: Line[], scroll: number, height: number): { lines: Line[]; offset: number } {
  const size = Math.max(1, height - 1);
  const offset = Math.max(0, Math.min(scroll, all.length - size));
  const window = all.slice(offset, offset + size);
  const where = `lines ${offset + 1}-${offset + window.length} of ${all.length}  (up/down, pgup/pgdn scroll)`;
  return { lines: [...window, { text: where, color: 'gray' }], offset };
}

/**
 * One delivery: its request (headers and exact body) and its attempts, in `height` rows. Unscrolled
 * (`scroll` null), the head and the newest attempts; scrolled, a window over every line, nothing cut.
 */
export function DeliveryDetailView({
  state,
  width,
  height,
  scroll = null,
}: {
  state: DetailState;
  width: number;
  height: number;
  scroll?: number | null;
}) {
  if (state.status === 'idle' || state.status === 'loading') return <Text dimColor>loading...</Text>;
  if (state.status === 'error') return <Text color="red">could not load the delivery: {state.message}</Text>;
  const lines =
    scroll === null
      ? fitDetail(detailLines(state.detail, width - 1), width - 1, height)
      : scrolledDetail(allDetailLines(state.detail, width - 1), scroll, height).lines;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i} color={line.color} bold={line.bold}>
          {line.text || ' '}
        </Text>
      ))}
    </Box>
  );
}
