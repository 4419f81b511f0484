import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useRef, useState } from 'react';
import type { DeliveryDetail } from '../contract/webhooks.js';
import { DeliveryDetailView } from './delivery-detail.js';
import { DeliveryList } from './delivery-list.js';
import { useDeliveries, type Subscribe } from './use-deliveries.js';
import { useDeliveryDetail } from './use-detail.js';

export interface ListenAppProps {
  appId: string;
  forwardUrl: string | null;
  secret: string;
  subscribe: Subscribe;
  resend: (eventId: string) => Promise<void>;
  loadDetail: (deliveryId: string) => Promise<DeliveryDetail>;
}

/**
 * `scanctl webhook listen` on a terminal: deliveries and their retries as they happen; Enter
 * opens one (headers and body), r resends its event, Esc goes back, q quits.
 */
export function ListenApp(props: ListenAppProps) {
  const { exit } = useApp();
  const lines = useDeliveries(props.subscribe);
  const [selected, setSelected] = useState(0);
  const [openId, setOpenId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const current = lines[Math.min(selected, Math.max(0, lines.length - 1))];
  const openLine = openId ? lines.find((l) => l.deliveryId === openId) : undefined;
  // The detail reloads whenever its delivery moves on the stream.
  const detail = useDeliveryDetail(props.loadDetail, openId, openLine?.latest);
  const resend = useCallback(
    (eventId: string) => {
      setNotice(`resending ${eventId}...`);
      props.resend(eventId).then(
        () => setNotice(`resent ${eventId}: a new delivery, same event id`),
        (error: unknown) => setNotice(`resend failed: ${(error as Error).message}`),
      );
    },
    [props.resend],
  );

  // The key handler reads the latest render through a ref: a keypress may arrive before ink re-subscribes it.
  const latest = useRef({ lines, current, openId, openLine, resend });
  latest.current = { lines, current, openId, openLine, resend };

  useInput((input, key) => {
    const view = latest.current;
    if (input === 'q' || (key.ctrl && input === 'c')) return exit();
    if (view.openId) {
      if (key.escape || key.backspace || key.leftArrow) setOpenId(null);
      else if (input === 'r' && view.openLine) view.resend(view.openLine.latest.event_id);
      return;
    }
    if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, Math.min(s, view.lines.length - 1) - 1));
    else if (key.downArrow || input === 'j') setSelected((s) => Math.min(Math.max(0, view.lines.length - 1), s + 1));
    else if (key.return && view.current) setOpenId(view.current.deliveryId);
    else if (input === 'r' && view.current) view.resend(view.current.latest.event_id);
  });

  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>scanctl webhook listen</Text> {props.appId} {'->'} {props.forwardUrl ?? '(no webhook URL)'}
      </Text>
      <Text dimColor>signing secret: {props.secret}</Text>
      <Text> </Text>
      {openId ? <DeliveryDetailView state={detail} /> : <DeliveryList lines={lines} selected={selected} />}
      <Text> </Text>
      {notice ? <Text color="yellow">{notice}</Text> : null}
      <Text dimColor>{openId ? 'esc back  r resend  q quit' : 'up/down select  enter details  r resend  q quit'}</Text>
    </Box>
  );
}
