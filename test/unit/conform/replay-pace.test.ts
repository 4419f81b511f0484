import { describe, expect, it } from 'vitest';
import type { CassetteExchange } from '../../../src/contract/conformance.js';
import { CassetteReplay } from '../../../src/conform/replay.js';

const exchange = (seq: number, at_ms: number): CassetteExchange => ({
  seq,
  at_ms,
  method: 'DELETE',
  path: `/v1/results?host_user_ref=m${seq}`,
  request_headers: { authorization: 'Bearer <sk_test:1>' },
  request_body: null,
  status: 200,
  response_headers: { 'content-type': 'application/json' },
  response_body: '{"deleted":0}',
});

/**
 * Time that moves only when the replay sleeps or a request takes its latency; `sentAt(seq)` is when
 * the request of that exchange went out, from the replay's start.
 */
function slowTarget(latency: (path: string) => number) {
  let now = 10_000;
  const sent = new Map<string, number>();
  const timer = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
  const fetch = async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const path = url.pathname + url.search;
    sent.set(path, now);
    now += latency(path);
    return new Response('{"deleted":0}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const sentAt = (seq: number) => sent.get(`/v1/results?host_user_ref=m${seq}`)! - 10_000;
  return { timer, fetch, sentAt };
}

const replay = (target: ReturnType<typeof slowTarget>, paced = true) =>
  new CassetteReplay({ baseUrl: 'http://127.0.0.1:1', key: 'sk_test_x', paced, fetch: target.fetch, timer: target.timer });

describe('CHOICE-66: the pace of conform replay', () => {
  it('CHOICE-66, SES-10: a target that answers slowly stretches the replay; no request goes out sooner after the one before than it arrived in the recording', async () => {
    // The first answer takes 1.5 s: requests recorded at 900 and 1000 ms are late, and must keep their 100 ms apart
    // (sent back to back, they could fall in one second of a rate limit the recording had them in two of).
    const target = slowTarget((path) => (path.endsWith('m1') ? 1500 : 10));
    const recorded = [exchange(1, 0), exchange(2, 900), exchange(3, 1000), exchange(4, 1000), exchange(5, 2000)];
    const report = await replay(target).replay(recorded);
    expect(report.differing).toBe(0);
    expect([1, 2, 3, 4, 5].map(target.sentAt)).toEqual([0, 1500, 1600, 1610, 2610]);
  });

  it('CHOICE-66: requests go out in the order they arrived in the recording (seq is the order of the answers), at their recorded gaps', async () => {
    // Two requests in flight at once: the one that arrived second was answered first.
    const target = slowTarget(() => 0);
    await replay(target).replay([exchange(1, 50), exchange(2, 20), exchange(3, 300)]);
    expect([target.sentAt(2), target.sentAt(1), target.sentAt(3)]).toEqual([0, 30, 280]);
  });

  it('CHOICE-66: --no-pace sends each request as soon as the one before is answered', async () => {
    const target = slowTarget(() => 5);
    await replay(target, false).replay([exchange(1, 0), exchange(2, 900), exchange(3, 5000)]);
    expect([1, 2, 3].map(target.sentAt)).toEqual([0, 5, 10]);
  });
});
