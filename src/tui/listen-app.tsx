import { Box, Text, useApp, useInput } from 'ink';
import { useCallback, useRef, useState } from 'react';
import type { WebhookDeliveryDetail } from '../contract/webhooks.js';
import { DeliveryDetailView } from './delivery-detail.js';
import { DeliveryList } from './delivery-list.js';
import { fitColumns, listHeight, MIN_COLUMNS, stateOf } from './layout.js';
import { useDeliveries, type DeliveryLine, type Subscribe } from './use-deliveries.js';
import { useDeliveryDetail } from './use-detail.js';
import { useEmulatorClock } from './use-emulator-clock.js';
import { useSelection } from './use-selection.js';
import { useTerminalSize } from './use-terminal-size.js';
import { errorMessage } from '../util/caught.js';

export interface ListenAppProps {
  appId: string;
  forwardUrl: string | null;
  secret: string;
  /** The event types shown (and forwarded); null: all. */
  events?: readonly string[] | null;
  subscribe: Subscribe;
  resend: (eventId: string) => Promise<void>;
  loadDetail: (deliveryId: string) => Promise<WebhookDeliveryDetail>;
  /** Reads the emulator's clock (ISO); the view shows it, refreshed every second. */
  readClock?: () => Promise<string>;
  /** The emulator's time when the stream opened. */
  emulatorTime?: string | null;
}

/** Lines drawn around the list: title, secret, clock, counts, column header ... blank, notice, keys. */
const AROUND_LIST = 8;

/**
 * `scanctl webhook listen` on a terminal: deliveries and their retries as they happen; Enter
 * opens one (headers, body, the receiver's answers), r resends its event, Esc goes back, q quits.
 */
export function ListenApp(props: ListenAppProps) {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const width = Math.max(MIN_COLUMNS, columns);
  const lines = useDeliveries(props.subscribe);
  const size = listHeight(rows, AROUND_LIST);
  const selection = useSelection(lines, size);
  const clock = useEmulatorClock(props.readClock, props.emulatorTime ?? null);
  const [openId, setOpenId] = useState<string | null>(null);
  // The detail's first row once the user scrolls it (null: the head and the newest attempts).
  const [scroll, setScroll] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const current = lines[selection.index];
  const openLine = openId ? lines.find((l) => l.deliveryId === openId) : undefined;
  // The detail reloads whenever its delivery moves on the stream.
  const detail = useDeliveryDetail(props.loadDetail, openId, openLine?.latest);
  const resend = useCallback(
    (eventId: string) => {
      setNotice(`resending ${eventId}...`);
      props.resend(eventId).then(
        () => setNotice(`resent ${eventId}: a new delivery, same event id`),
        (error: unknown) => setNotice(`resend failed: ${errorMessage(error)}`),
      );
    },
    [props.resend],
  );

  // The key handler reads the latest render through a ref: a keypress may arrive before ink re-subscribes it.
  const latest = useRef({ lines, current, openId, openLine, resend, selection, size, scroll });
  latest.current = { lines, current, openId, openLine, resend, selection, size, scroll };
  const open = (id: string | null) => {
    setOpenId(id);
    setScroll(null);
  };

  useInput((input, key) => {
    const view = latest.current;
    if (input === 'q' || (key.ctrl && input === 'c')) return exit();
    if (view.openId) {
      const by =
        key.upArrow || input === 'k' ? -1 : key.downArrow || input === 'j' ? 1 : key.pageUp ? -view.size : key.pageDown ? view.size : 0;
      if (key.escape || key.backspace || key.leftArrow) open(null);
      else if (input === 'r' && view.openLine) view.resend(view.openLine.latest.event_id);
      // Clamped where it is drawn; never below the top here.
      else if (by !== 0) setScroll((s) => Math.max(0, (s ?? 0) + by));
      else if (key.home || input === 'g') setScroll(0);
      return;
    }
    // Keys typed faster than a frame can arrive together ("jjj").
    if (key.upArrow || /^k+$/.test(input)) view.selection.move(view.lines, key.upArrow ? -1 : -input.length);
    else if (key.downArrow || /^j+$/.test(input)) view.selection.move(view.lines, key.downArrow ? 1 : input.length);
    else if (key.pageUp) view.selection.move(view.lines, -view.size);
    else if (key.pageDown) view.selection.move(view.lines, view.size);
    else if (key.home || input === 'g') view.selection.follow();
    else if (key.end || input === 'G') view.selection.move(view.lines, view.lines.length);
    else if (key.return && view.current) open(view.current.deliveryId);
    else if (input === 'r' && view.current) view.resend(view.current.latest.event_id);
  });

  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        <Text bold>scanctl webhook listen</Text> {props.appId} {'->'} {props.forwardUrl ?? '(no webhook URL)'}
      </Text>
      <Text dimColor wrap="truncate">
        signing secret: {props.secret}
      </Text>
      <Text wrap="truncate">{clockLine(clock.time, clock.aheadMs)}</Text>
      <Text wrap="truncate">{countLine(lines, props.events ?? null, selection.start, size)}</Text>
      {openId ? (
        <DeliveryDetailView state={detail} width={width} height={size + 1} scroll={scroll} />
      ) : (
        <DeliveryList lines={lines} columns={fitColumns(width)} selectedId={selection.selectedId} start={selection.start} size={size} />
      )}
      <Text> </Text>
      <Text color="yellow" wrap="truncate">
        {notice ?? ' '}
      </Text>
      <Text dimColor wrap="truncate">
        {openId
          ? 'up/down scroll  esc back  r resend  q quit'
          : `up/down select  pgup/pgdn page  ${selection.following ? '' : 'g newest  '}enter details  r resend  q quit`}
      </Text>
    </Box>
  );
}

/** The emulator's clock: it can be days ahead of real time (`clock advance`). */
function clockLine(time: string | null, aheadMs: number): string {
  if (!time) return 'emulator clock: reading...';
  const days = Math.floor(aheadMs / 86_400_000);
  const hours = Math.floor(aheadMs / 3_600_000);
  const ahead = days >= 1 ? `${days} day${days === 1 ? '' : 's'}` : hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : '';
  return `emulator clock ${time.slice(0, 10)} ${time.slice(11, 19)}Z${ahead ? `, ${ahead} ahead of real time` : ''}`;
}

/** How many deliveries in which state, and which rows are in view. */
function countLine(lines: DeliveryLine[], events: readonly string[] | null, start: number, size: number): string {
  const count = (state: string) => lines.filter((l) => stateOf(l.latest) === state).length;
  const exhausted = count('EXHAUSTED');
  const only = events ? ` of ${events.join(', ')}` : '';
  // The view lists what happens while it runs; earlier deliveries: `scanctl webhook deliveries`.
  const counts = `${lines.length} deliver${lines.length === 1 ? 'y' : 'ies'}${only} since listen started: ${count('delivered')} delivered, ${count('retrying')} retrying${exhausted ? `, ${exhausted} EXHAUSTED` : ''}`;
  return lines.length > size ? `${counts}  (rows ${start + 1}-${Math.min(lines.length, start + size)} of ${lines.length})` : counts;
}
