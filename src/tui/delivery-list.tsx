import { Box, Text } from 'ink';
import type { DeliveryLine } from './use-deliveries.js';

const COLUMNS = [
  ['EVENT', 25],
  ['TYPE', 10],
  ['SCAN', 21],
  ['ATTEMPT', 8],
  ['STATUS', 10],
  ['LATENCY', 8],
  ['NEXT (EMU CLOCK)', 17],
] as const;

const SHORT_TYPE: Record<string, string> = { 'scan.completed': 'completed', 'scan.failed': 'failed', 'scan.results_available': 'results' };

/** MM-DD HH:MM:SS of an ISO time on the emulator clock. */
const shortTime = (iso: string | null) => (iso ? `${iso.slice(5, 10)} ${iso.slice(11, 19)}` : '');

const outcomeColor = (outcome: string) =>
  outcome === 'succeeded' ? 'green' : outcome === 'failed' || outcome === 'cancelled' ? 'red' : outcome === 'retrying' ? 'yellow' : 'cyan';

function cells(line: DeliveryLine): string[] {
  const e = line.latest;
  const status = e.kind === 'attempt_finished' ? (e.status === null ? 'error' : String(e.status)) : e.outcome;
  return [
    e.event_id,
    (SHORT_TYPE[e.event_type] ?? e.event_type) + (e.origin === 'resend' ? '*' : ''),
    e.scan_id,
    `${e.attempt}/${e.max_attempts}`,
    status,
    e.latency_ms === null ? '' : `${e.latency_ms} ms`,
    shortTime(e.next_attempt_at),
  ];
}

const pad = (text: string, width: number) => (text.length >= width ? `${text.slice(0, width - 1)} ` : text.padEnd(width));

/** The deliveries as they happen, one row each, the selected one marked. */
export function DeliveryList({ lines, selected }: { lines: DeliveryLine[]; selected: number }) {
  return (
    <Box flexDirection="column">
      <Text bold>{'  ' + COLUMNS.map(([title, width]) => pad(title, width)).join('') + 'ERROR'}</Text>
      {lines.length === 0 ? <Text dimColor>  waiting for deliveries...</Text> : null}
      {lines.map((line, i) => (
        <Text key={line.deliveryId} inverse={i === selected}>
          {i === selected ? '> ' : '  '}
          {cells(line)
            .slice(0, 4)
            .map((cell, c) => pad(cell, COLUMNS[c]![1]))
            .join('')}
          <Text color={outcomeColor(line.latest.outcome)}>{pad(cells(line)[4]!, COLUMNS[4][1])}</Text>
          {pad(cells(line)[5]!, COLUMNS[5][1])}
          {pad(cells(line)[6]!, COLUMNS[6][1])}
          {line.latest.error ? <Text color="red">{line.latest.error}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}
