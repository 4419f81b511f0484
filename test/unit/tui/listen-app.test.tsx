import { describe, expect, it, vi } from 'vitest';
import type { WebhookDeliveryDetail } from '../../../src/contract/webhooks.js';
import type { WebhookStreamEvent } from '../../../src/contract/webhook-stream.js';
import { fitColumns, windowStart } from '../../../src/tui/layout.js';
import { ListenApp, type ListenAppProps } from '../../../src/tui/listen-app.js';
import { foldDelivery, type Subscribe } from '../../../src/tui/use-deliveries.js';
import { renderOnTerminal } from '../../helpers/ink-terminal.js';

function feed() {
  const listeners = new Set<(e: WebhookStreamEvent) => void>();
  const subscribe: Subscribe = (fn) => {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  };
  return { subscribe, push: (e: WebhookStreamEvent) => listeners.forEach((fn) => fn(e)) };
}

const base: WebhookStreamEvent = {
  object: 'delivery.attempt_finished',
  time: '2026-11-22T10:00:00.000Z',
  delivery_id: 'del_1',
  event_id: 'evt_1',
  event_type: 'scan.completed',
  app_id: 'app_demo',
  scan_id: 'scan_1',
  origin: 'event',
  attempt: 1,
  max_attempts: 17,
  url: 'http://127.0.0.1:9/hooks',
  status: 500,
  latency_ms: 12,
  error: 'HTTP 500',
  response_excerpt: '{"error":"db down"}',
  outcome: 'retrying',
  next_attempt_at: '2026-11-22T10:00:30.000Z',
};

/** Delivery n: del_n of evt_n (ids padded to the real length so the columns are exercised). */
const nth = (n: number, fields: Partial<WebhookStreamEvent> = {}): WebhookStreamEvent => ({
  ...base,
  delivery_id: `del_${n}`,
  event_id: `evt_${String(n).padStart(20, '0')}`,
  scan_id: `scn_${String(n).padStart(16, '0')}`,
  ...fields,
});

const detail: WebhookDeliveryDetail = {
  id: 'del_1',
  object: 'webhook_delivery',
  event_id: 'evt_1',
  event_type: 'scan.completed',
  app_id: 'app_demo',
  scan_id: 'scan_1',
  host_user_ref: 'member_1',
  origin: 'event',
  status: 'pending',
  attempts: 1,
  max_attempts: 17,
  next_attempt_at: '2026-11-22T10:00:30.000Z',
  last_status: 500,
  last_error: 'HTTP 500',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:9/hooks',
    headers: { 'Service-Signature': 'ab'.repeat(32), 'Service-Event-Id': 'evt_1', 'Service-Event-Type': 'scan.completed' },
    body: '{"id":"evt_1","type":"scan.completed"}',
  },
  attempt_log: [
    {
      number: 1,
      url: 'http://127.0.0.1:9/hooks',
      started_at: '2026-11-22T10:00:00.000Z',
      status: 500,
      latency_ms: 12,
      error: 'HTTP 500',
      response_excerpt: '{"error":"db down"}',
      duplicate_send: false,
    },
  ],
};

function app(overrides: Partial<ListenAppProps> = {}, size = { columns: 100, rows: 30 }) {
  const f = feed();
  const resend = vi.fn(async (_eventId: string) => undefined);
  const loadDetail = vi.fn(async (_id: string) => detail);
  const ui = renderOnTerminal(
    <ListenApp
      appId="app_demo"
      forwardUrl="http://127.0.0.1:9/hooks"
      secret="whsec_test"
      subscribe={f.subscribe}
      resend={resend}
      loadDetail={loadDetail}
      {...overrides}
    />,
    size,
  );
  return { ui, f, resend, loadDetail };
}

const selectedLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('> ')) ?? '';
const has = (text: string) => (frame: string) => frame.includes(text);

describe('webhook listen TUI', () => {
  it('renders the header, the secret, and each delivery with attempt k of 17, status, latency, next attempt and the answer', async () => {
    const { ui, f } = app({}, { columns: 130, rows: 30 });
    expect(ui.lastFrame()).toContain('waiting for deliveries');
    expect(ui.lastFrame()).toContain('whsec_test');
    f.push(base);
    const frame = await ui.frame(has('evt_1'));
    const row = frame.split('\n').find((l) => l.includes('evt_1'))!;
    for (const text of ['completed', 'scan_1', '1/17', '500', '12 ms', '11-22 10:00:30', 'retrying', '{"error":"db down"}'])
      expect(row).toContain(text);
    // The retry updates the same row.
    f.push({
      ...base,
      attempt: 2,
      status: 200,
      latency_ms: 3,
      error: null,
      response_excerpt: 'ok',
      outcome: 'succeeded',
      next_attempt_at: null,
    });
    const after = await ui.frame(has('2/17'));
    expect(after).toContain('delivered');
    expect(after.match(/evt_1/g)).toHaveLength(1);
    ui.unmount();
  });

  it('with 60 deliveries on an 80x24 terminal the title, secret, clock, column header and selection stay on screen, no line wider than 80', async () => {
    const { ui, f } = app({ emulatorTime: '2026-11-25T08:00:00.000Z' }, { columns: 80, rows: 24 });
    for (let n = 1; n <= 60; n++) f.push(nth(n));
    let frame = await ui.frame(has('evt_00000000000000000060'));
    const check = (text: string) => {
      const lines = text.split('\n');
      expect(lines.length).toBeLessThan(24);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
      expect(lines[0]).toContain('scanctl webhook listen');
      expect(lines[1]).toContain('whsec_test');
      expect(lines[2]).toContain('emulator clock 2026-11-25 08:00:00Z');
      expect(lines[4]).toMatch(/^ {2}EVENT +TYPE +TRY +LAST +STATE +NEXT TRY/);
      expect(selectedLine(text)).not.toBe('');
    };
    // Until the user picks one, the selection follows the newest, at the top.
    check(frame);
    expect(selectedLine(frame)).toContain('evt_00000000000000000060');
    expect(frame).toContain('(rows 1-15 of 60)');
    // Paging down moves the window with the selection; the header stays.
    ui.stdin.write('\u001b[6~');
    frame = await ui.frame((t) => selectedLine(t).includes('evt_00000000000000000045'));
    check(frame);
    expect(frame).toContain('(rows 2-16 of 60)');
    // The oldest, at the bottom of the list, then 20 new deliveries: the selection stays on it, in view.
    ui.stdin.write('G');
    await ui.frame((t) => selectedLine(t).includes('evt_00000000000000000001'));
    for (let n = 61; n <= 80; n++) f.push(nth(n));
    frame = await ui.frame(has('of 80)'));
    check(frame);
    expect(selectedLine(frame)).toContain('evt_00000000000000000001');
    expect(frame).toContain('(rows 66-80 of 80)');
    // Keys that arrive together count one each.
    ui.stdin.write('kkk');
    frame = await ui.frame((t) => selectedLine(t).includes('evt_00000000000000000004'));
    check(frame);
    // g: back to following the newest.
    ui.stdin.write('g');
    frame = await ui.frame((t) => selectedLine(t).includes('evt_00000000000000000080'));
    check(frame);
    ui.unmount();
  });

  it('the selection stays on the delivery the user picked when new ones arrive: r and Enter act on it', async () => {
    const { ui, f, resend, loadDetail } = app();
    f.push(nth(1));
    f.push(nth(2));
    await ui.frame(has('evt_00000000000000000002'));
    // Newest first, and the selection follows it: evt_2 on top; the user picks evt_1 below it.
    expect(selectedLine(ui.lastFrame())).toContain('evt_00000000000000000002');
    ui.stdin.write('j');
    await ui.frame((t) => selectedLine(t).includes('evt_00000000000000000001'));
    for (let n = 3; n <= 6; n++) f.push(nth(n));
    const frame = await ui.frame(has('evt_00000000000000000006'));
    expect(selectedLine(frame)).toContain('evt_00000000000000000001');
    ui.stdin.write('r');
    await ui.frame(has('resent evt_00000000000000000001'));
    expect(resend).toHaveBeenCalledExactlyOnceWith('evt_00000000000000000001');
    ui.stdin.write('\r');
    await ui.frame(has('Service-Signature'));
    expect(loadDetail).toHaveBeenCalledExactlyOnceWith('del_1');
    ui.unmount();
  });

  it('Enter opens the detail view with headers, body and the receiver’s answer; Esc goes back', async () => {
    const { ui, f, loadDetail } = app();
    f.push(base);
    await ui.frame(has('evt_1'));
    ui.stdin.write('\r');
    const frame = await ui.frame(has('Service-Signature'));
    expect(loadDetail).toHaveBeenCalledWith('del_1');
    expect(frame).toContain('Service-Event-Id: evt_1');
    expect(frame).toContain('{"id":"evt_1","type":"scan.completed"}');
    expect(frame).toContain('answer: {"error":"db down"}');
    ui.stdin.write('\u001b');
    await ui.frame(has('enter details'));
    ui.unmount();
  });

  it('WH-8, CHOICE-68: a send that chaos --duplicate made shows in the detail as a send of its attempt, marked, with its own answer', async () => {
    const first = detail.attempt_log[0]!;
    const again = { ...first, status: 409, error: 'HTTP 409', response_excerpt: 'again', duplicate_send: true };
    const { ui, f } = app({ loadDetail: async () => ({ ...detail, attempt_log: [first, again] }) });
    f.push(base);
    await ui.frame(has('evt_1'));
    ui.stdin.write('\r');
    const frame = await ui.frame(has('answer: again'));
    expect(frame).toContain('#1 duplicate send 11-22 10:00:00  409');
    expect(frame).toContain('answer: {"error":"db down"}');
    ui.unmount();
  });

  it('WH-8, CHOICE-68: the list shows the sends chaos --duplicate added to a delivery in its row, marked, each with its attempt and its answer', async () => {
    const { ui, f } = app({}, { columns: 160, rows: 30 });
    const again = { status: 409, latency_ms: 2, error: 'HTTP 409', response_excerpt: 'again' };
    f.push({ ...base, duplicate_send: again });
    let frame = await ui.frame(has('dup send'));
    let row = frame.split('\n').find((l) => l.includes('evt_1'))!;
    expect(row).toContain('dup send #1: 409');
    // The first send decides the attempt: its status and answer stay in the row.
    expect(row).toMatch(/1\/17 +500 +retrying/);
    expect(row).toContain('{"error":"db down"}');
    // The retry, duplicated too: both sends listed in the same row, each under its attempt.
    f.push({
      ...base,
      attempt: 2,
      status: 200,
      error: null,
      response_excerpt: 'ok',
      outcome: 'succeeded',
      next_attempt_at: null,
      duplicate_send: { ...again, status: 200 },
    });
    frame = await ui.frame(has('dup sends'));
    row = frame.split('\n').find((l) => l.includes('evt_1'))!;
    expect(row).toContain('dup sends #1: 409, #2: 200');
    expect(frame.match(/evt_1/g)).toHaveLength(1);
    // A delivery no chaos duplicated has no mark.
    f.push(nth(2));
    frame = await ui.frame(has('evt_00000000000000000002'));
    expect(frame.split('\n').find((l) => l.includes('evt_00000000000000000002'))).not.toContain('dup send');
    ui.unmount();
  });

  it('a detail with 17 attempts fits an 80x24 terminal: the head and the newest attempts, with their answers', async () => {
    const attempts = Array.from({ length: 17 }, (_, i) => ({
      ...detail.attempt_log[0]!,
      number: i + 1,
      response_excerpt: `{"error":"try ${i + 1}"}`,
    }));
    const { ui, f } = app(
      { loadDetail: async () => ({ ...detail, status: 'failed', attempts: 17, next_attempt_at: null, attempt_log: attempts }) },
      { columns: 80, rows: 24 },
    );
    f.push(base);
    await ui.frame(has('evt_1'));
    ui.stdin.write('\r');
    const frame = await ui.frame(has('#17'));
    expect(frame.split('\n').length).toBeLessThan(24);
    expect(frame).toContain('EXHAUSTED');
    expect(frame).toContain('answer: {"error":"try 17"}');
    expect(frame).toMatch(/\.\.\. \d+ earlier lines of attempts not shown/);
    ui.unmount();
  });

  it('the detail scrolls: the whole body and every line, where unscrolled it is cut to fit 80x24', async () => {
    const body = `{"id":"evt_1","host_user_ref":"${'m'.repeat(600)}","tail":"THE_END"}`;
    const { ui, f } = app({ loadDetail: async () => ({ ...detail, request: { ...detail.request, body } }) }, { columns: 80, rows: 24 });
    f.push(base);
    await ui.frame(has('evt_1'));
    ui.stdin.write('\r');
    let frame = await ui.frame(has('Service-Signature'));
    expect(frame).not.toContain('THE_END');
    expect(frame).toContain('up/down scroll');
    ui.stdin.write('\u001b[6~');
    frame = await ui.frame(has('THE_END'));
    expect(frame).toMatch(/lines \d+-\d+ of \d+ {2}\(up\/down, pgup\/pgdn scroll\)/);
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(frame.split('\n').length).toBeLessThan(24);
    // Back to the top.
    ui.stdin.write('g');
    frame = await ui.frame(has('lines 1-'));
    expect(frame).toContain('Service-Event-Id: evt_1');
    ui.unmount();
  });

  it('a resend is marked * in the type column at 80 and 130 columns; the empty view says earlier deliveries are not listed', async () => {
    for (const columns of [80, 130]) {
      const { ui, f } = app({}, { columns, rows: 24 });
      expect(ui.lastFrame()).toContain('waiting for deliveries... (earlier ones: scanctl webhook deliveries)');
      f.push(nth(1, { origin: 'resend' }));
      const frame = await ui.frame(has('evt_00000000000000000001'));
      const row = frame.split('\n').find((l) => l.includes('evt_00000000000000000001'))!;
      expect(row, `${columns} columns`).toContain('completed* ');
      for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(columns);
      ui.unmount();
    }
  });

  it('the columns fit the width and follow a resize: the scan id and latency come back when there is room', async () => {
    const { ui, f } = app({}, { columns: 80, rows: 24 });
    f.push(nth(1));
    let frame = await ui.frame(has('evt_00000000000000000001'));
    expect(frame).not.toContain('SCAN');
    expect(frame).not.toContain('LATENCY');
    ui.resize(130, 24);
    frame = await ui.frame(has('SCAN'));
    expect(frame).toContain('LATENCY');
    expect(frame).toContain('scn_0000000000000001');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(130);
    ui.unmount();
  });

  it('shows the emulator clock as read (days ahead of real time) and marks an exhausted delivery', async () => {
    const readClock = vi.fn(async () => '2030-01-02T03:04:05.000Z');
    const { ui, f } = app({ readClock, events: ['scan.completed', 'scan.failed'] });
    await ui.frame(has('emulator clock 2030-01-02 03:04:05Z'));
    expect(ui.lastFrame()).toMatch(/, \d+ days ahead of real time/);
    f.push({ ...base, attempt: 17, outcome: 'failed', next_attempt_at: null });
    const frame = await ui.frame(has('EXHAUSTED'));
    expect(frame).toContain('1 delivery of scan.completed, scan.failed since listen started: 0 delivered');
    expect(frame.split('\n').find((l) => l.includes('evt_1'))).toContain('EXHAUSTED');
    expect(frame).toContain('1 EXHAUSTED');
    ui.unmount();
  });

  it('foldDelivery keeps one line per delivery, newest first, with its finished attempts', () => {
    let lines = foldDelivery([], { ...base, object: 'delivery.queued', attempt: 0, outcome: 'pending', status: null });
    lines = foldDelivery(lines, base);
    lines = foldDelivery(lines, { ...base, delivery_id: 'del_2' });
    expect(lines.map((l) => l.deliveryId)).toEqual(['del_2', 'del_1']);
    expect(lines[1]!.attempts).toHaveLength(1);
  });

  it('the window keeps the selection in view and stays full', () => {
    expect(windowStart(0, 20, 60, 15)).toBe(6);
    expect(windowStart(10, 12, 60, 15)).toBe(10);
    expect(windowStart(10, 3, 60, 15)).toBe(3);
    expect(windowStart(50, 59, 60, 15)).toBe(45);
    expect(windowStart(5, 0, 3, 15)).toBe(0);
    for (const width of [80, 100, 132, 200]) {
      expect(fitColumns(width).reduce((sum, c) => sum + c.width, 2)).toBe(width - 1);
    }
  });
});
