import { Box, Text } from 'ink';
import { cellText, duplicateSends, fit, stateColor, stateOf, type Column } from './layout.js';
import type { DeliveryLine } from './use-deliveries.js';

export interface DeliveryListProps {
  lines: DeliveryLine[];
  columns: Column[];
  selectedId: string | null;
  /** The window: `size` rows from `start`. */
  start: number;
  size: number;
}

/** The deliveries as they happen, one row each, in a window that keeps the selected one in view. */
export function DeliveryList({ lines, columns, selectedId, start, size }: DeliveryListProps) {
  const visible = lines.slice(start, start + size);
  return (
    <Box flexDirection="column">
      <Text bold>{'  ' + columns.map((c, i) => fit(c.title, c.width, i === columns.length - 1)).join('')}</Text>
      {lines.length === 0 ? (
        <Text dimColor wrap="truncate">
          {' '}
          waiting for deliveries... (earlier ones: scanctl webhook deliveries)
        </Text>
      ) : null}
      {visible.map((line) => {
        const selected = line.deliveryId === selectedId;
        const state = stateOf(line.latest);
        // CHOICE-68: chaos's second sends of an attempt lead the answer cell, marked: sends of this delivery, not rows of their own.
        const duplicates = duplicateSends(line.attempts);
        return (
          <Text key={line.deliveryId} inverse={selected} wrap="truncate">
            {selected ? '> ' : '  '}
            {columns.map((c, i) => {
              const text = fit(cellText(c.id, line.latest), c.width, i === columns.length - 1);
              if (c.id === 'state')
                return (
                  <Text key={c.id} color={stateColor(state)} bold={state === 'EXHAUSTED'}>
                    {text}
                  </Text>
                );
              if (c.id === 'answer') {
                const mark = duplicates ? fit(`${duplicates} `, c.width, true) : '';
                const answer = fit(cellText(c.id, line.latest), c.width - mark.length, true);
                return (
                  <Text key={c.id}>
                    {mark ? <Text color="magenta">{mark}</Text> : null}
                    <Text color={state === 'delivered' ? undefined : 'red'}>{answer}</Text>
                  </Text>
                );
              }
              return text;
            })}
          </Text>
        );
      })}
    </Box>
  );
}
