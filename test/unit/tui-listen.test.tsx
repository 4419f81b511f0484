import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { DeliveryDetail, DeliveryStreamEvent } from '../../src/contract/webhooks.js';
import { ListenApp } from '../../src/tui/listen-app.js';
import { foldDelivery, type Subscribe } from '../../src/tui/use-deliveries.js';

function feed() {
  const listeners = new Set<(e: DeliveryStreamEvent) => void>();
  const subscribe: Subscribe = (fn) => {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  };
  return { subscribe, push: (e: DeliveryStreamEvent) => listeners.forEach((fn) => fn(e)) };
}

const base: DeliveryStreamEvent = {
  kind: 'attempt_finished',
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
  outcome: 'retrying',
  next_attempt_at: '2026-11-22T10:00:30.000Z',
};

const detail: DeliveryDetail = {
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
  attempt_log: [{ number: 1, url: 'http://127.0.0.1:9/hooks', started_at: '2026-11-22T10:00:00.000Z', status: 500, latency_ms: 12, error: 'HTTP 500', response_excerpt: '' }],
};

const tick = () => new Promise((r) => setTimeout(r, 20));

function app(overrides: Partial<Parameters<typeof ListenApp>[0]> = {}) {
  const f = feed();
  const resend = vi.fn(async () => undefined);
  const loadDetail = vi.fn(async () => detail);
  const ui = render(
    <ListenApp appId="app_demo" forwardUrl="http://127.0.0.1:9/hooks" secret="whsec_test" subscribe={f.subscribe} resend={resend} loadDetail={loadDetail} {...overrides} />,
  );
  return { ui, f, resend, loadDetail };
}

describe('webhook listen TUI', () => {
  it('renders the header, the secret, and each delivery with attempt k of 17, status, latency and next attempt', async () => {
    const { ui, f } = app();
    expect(ui.lastFrame()).toContain('waiting for deliveries');
    expect(ui.lastFrame()).toContain('whsec_test');
    f.push(base);
    await tick();
    const frame = ui.lastFrame()!;
    for (const text of ['evt_1', 'completed', 'scan_1', '1/17', '500', '12 ms', '11-22 10:00:30']) expect(frame).toContain(text);
    // One line per delivery on a 100-column terminal.
    expect(frame.split('\n').filter((l) => l.includes('evt_1'))[0]).toContain('11-22 10:00:30');
    // The retry updates the same row.
    f.push({ ...base, attempt: 2, status: 200, latency_ms: 3, error: null, outcome: 'succeeded', next_attempt_at: null });
    await tick();
    expect(ui.lastFrame()).toContain('2/17');
    expect(ui.lastFrame()).toContain('200');
    expect(ui.lastFrame()!.match(/evt_1/g)).toHaveLength(1);
    ui.unmount();
  });

  it('the r key resends the selected delivery’s event', async () => {
    const { ui, f, resend } = app();
    f.push(base);
    f.push({ ...base, delivery_id: 'del_2', event_id: 'evt_2', scan_id: 'scan_2' });
    await tick();
    // Newest first: evt_2 is selected; move down to evt_1.
    ui.stdin.write('j');
    await tick();
    ui.stdin.write('r');
    await tick();
    expect(resend).toHaveBeenCalledWith('evt_1');
    expect(ui.lastFrame()).toContain('resent evt_1');
    ui.unmount();
  });

  it('Enter opens the detail view with headers and body; Esc goes back', async () => {
    const { ui, f, loadDetail } = app();
    f.push(base);
    await tick();
    ui.stdin.write('\r');
    await tick();
    expect(loadDetail).toHaveBeenCalledWith('del_1');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('Service-Signature');
    expect(frame).toContain('Service-Event-Id: evt_1');
    expect(frame).toContain('{"id":"evt_1","type":"scan.completed"}');
    ui.stdin.write('\u001b');
    await tick();
    expect(ui.lastFrame()).toContain('enter details');
    ui.unmount();
  });

  it('foldDelivery keeps one line per delivery, newest first, with its finished attempts', () => {
    let lines = foldDelivery([], { ...base, kind: 'queued', attempt: 0, outcome: 'pending', status: null });
    lines = foldDelivery(lines, base);
    lines = foldDelivery(lines, { ...base, delivery_id: 'del_2' });
    expect(lines.map((l) => l.deliveryId)).toEqual(['del_2', 'del_1']);
    expect(lines[1]!.attempts).toHaveLength(1);
  });
});
