import { Box, Text } from 'ink';
import type { DetailState } from './use-detail.js';

/** One delivery: its request (headers and exact body) and every attempt. */
export function DeliveryDetailView({ state }: { state: DetailState }) {
  if (state.status === 'idle' || state.status === 'loading') return <Text dimColor>loading...</Text>;
  if (state.status === 'error') return <Text color="red">could not load the delivery: {state.message}</Text>;
  const d = state.detail;
  return (
    <Box flexDirection="column">
      <Text bold>
        {d.id} {d.event_type} {d.status} (attempt {d.attempts} of {d.max_attempts}
        {d.next_attempt_at ? `, next ${d.next_attempt_at}` : ''})
      </Text>
      <Text>POST {d.request.url ?? '(no webhook URL)'}</Text>
      {Object.entries(d.request.headers).map(([name, value]) => (
        <Text key={name}>
          <Text color="cyan">{name}</Text>: {value}
        </Text>
      ))}
      <Text> </Text>
      <Text>{d.request.body}</Text>
      <Text> </Text>
      {d.attempt_log.map((a) => (
        <Text key={a.number}>
          #{a.number} {a.started_at} {a.status ?? '---'} {a.latency_ms === null ? '' : `${a.latency_ms} ms`} {a.error ?? ''}
        </Text>
      ))}
    </Box>
  );
}
