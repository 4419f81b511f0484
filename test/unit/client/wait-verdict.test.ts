import { describe, expect, it } from 'vitest';
import { judge, nextDueOfOpen, type WaitGoal } from '../../../src/client/wait-verdict.js';
import type { WebhookDelivery } from '../../../src/contract/webhooks.js';

function delivery(fields: Partial<WebhookDelivery> & Pick<WebhookDelivery, 'id' | 'status' | 'attempts'>): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    event_id: `evt_${fields.id}`,
    event_type: 'scan.completed',
    app_id: 'app_demo',
    scan_id: 'scn_1',
    host_user_ref: 'member_1',
    origin: 'event',
    max_attempts: 17,
    next_attempt_at: null,
    last_status: null,
    last_error: null,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:00.000Z',
    ...fields,
  };
}

const goal = (until: WaitGoal['until'], attempts = until === 'attempted' ? 1 : 0, requireAny = false): WaitGoal => ({
  until,
  attempts,
  requireAny,
});
const queued = delivery({ id: 'q', status: 'pending', attempts: 0, next_attempt_at: '2026-11-22T10:00:00.000Z' });
const retrying = delivery({ id: 'r', status: 'pending', attempts: 1, last_status: 500, next_attempt_at: '2026-11-22T10:00:30.000Z' });
const acked = delivery({ id: 'a', status: 'succeeded', attempts: 2, last_status: 204 });
const ackedFirst = delivery({ id: 'f', status: 'succeeded', attempts: 1, last_status: 204 });
const exhausted = delivery({ id: 'x', status: 'failed', attempts: 17, last_status: 500 });
const cancelled = delivery({ id: 'c', status: 'cancelled', attempts: 0 });

describe('judge: when a wait for deliveries is decided (CHOICE-42)', () => {
  it('CHOICE-42: attempted holds once each event made its attempts, whatever their outcome', () => {
    expect(judge([queued], goal('attempted'))).toBeNull();
    expect(judge([retrying, exhausted], goal('attempted'))).toEqual({ ok: true });
    expect(judge([retrying], goal('attempted', 2))).toBeNull();
    // Acknowledged at the first attempt: it never makes a second one.
    expect(judge([ackedFirst], goal('attempted', 2))).toEqual({ ok: false, reason: 'unmet', delivery: ackedFirst });
  });

  it('CHOICE-42: acknowledged holds once every event has a 2xx (or was withdrawn); an exhausted one fails it', () => {
    expect(judge([acked, retrying], goal('acknowledged'))).toBeNull();
    expect(judge([acked, cancelled], goal('acknowledged'))).toEqual({ ok: true });
    expect(judge([acked, exhausted], goal('acknowledged'))).toEqual({ ok: false, reason: 'failed', delivery: exhausted });
    // --attempts 2: acknowledged, but only after a retry.
    expect(judge([ackedFirst], goal('acknowledged', 2))).toMatchObject({ ok: false, reason: 'unmet' });
    expect(judge([acked], goal('acknowledged', 2))).toEqual({ ok: true });
  });

  it('CHOICE-42: a resend that succeeded acknowledges its event, though the first delivery was exhausted', () => {
    const resend = delivery({ id: 's', event_id: exhausted.event_id, origin: 'resend', status: 'succeeded', attempts: 1 });
    expect(judge([exhausted, resend], goal('acknowledged'))).toEqual({ ok: true });
    expect(judge([exhausted, resend], goal('exhausted'))).toMatchObject({ ok: false, reason: 'unmet' });
  });

  it('CHOICE-42: exhausted holds once every event failed all its attempts; an acknowledged one cannot be', () => {
    expect(judge([exhausted], goal('exhausted'))).toEqual({ ok: true });
    expect(judge([exhausted, retrying], goal('exhausted'))).toBeNull();
    expect(judge([exhausted, acked], goal('exhausted'))).toEqual({ ok: false, reason: 'unmet', delivery: acked });
  });

  it('CHOICE-42: settled holds once every event ended, either way', () => {
    expect(judge([acked, exhausted, cancelled], goal('settled'))).toEqual({ ok: true });
    expect(judge([acked, retrying], goal('settled'))).toBeNull();
  });

  it('CHOICE-43: no delivery at all passes scan simulate --wait, and fails webhook wait at once (reason none)', () => {
    expect(judge([], goal('acknowledged'))).toEqual({ ok: true });
    expect(judge([], goal('acknowledged', 0, true))).toEqual({ ok: false, reason: 'none', delivery: null });
  });
});

describe('nextDueOfOpen: where --play-retries moves the clock (CHOICE-41)', () => {
  it('CHOICE-41: the earliest next attempt of an event not yet at the goal, and nothing of ended ones', () => {
    const later = delivery({ id: 'l', status: 'pending', attempts: 3, next_attempt_at: '2026-11-22T10:02:00.000Z' });
    expect(nextDueOfOpen([later, retrying, acked, exhausted], goal('acknowledged'))).toBe('2026-11-22T10:00:30.000Z');
    expect(nextDueOfOpen([acked, exhausted], goal('settled'))).toBeNull();
    // Waiting for one attempt: a retry of an event that made it is not played.
    expect(nextDueOfOpen([retrying], goal('attempted'))).toBeNull();
    expect(nextDueOfOpen([retrying], goal('attempted', 2))).toBe('2026-11-22T10:00:30.000Z');
    // In flight: the attempt is on the wire; nothing to move.
    expect(
      nextDueOfOpen([delivery({ id: 'w', status: 'in_flight', attempts: 1, next_attempt_at: null })], goal('acknowledged')),
    ).toBeNull();
  });
});
