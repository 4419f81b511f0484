import { describe, expect, it } from 'vitest';
import type { CassetteExchange } from '../../../src/contract/conformance.js';
import { CassetteReplay } from '../../../src/conform/replay.js';

const ok = { status: 200, body: '{"object":"results_deletion","deleted":0}' };
const limited = { status: 429, body: '{"error":{"type":"rate_limit_error","code":"rate_limited","message":"Too many"}}' };

/** One DELETE of the same member: the requests of SES-10's burst are all alike. */
const exchange = (seq: number, at_ms: number, answered_ms: number | undefined, answer: typeof ok): CassetteExchange => ({
  seq,
  at_ms,
  ...(answered_ms === undefined ? {} : { answered_ms }),
  method: 'DELETE',
  path: '/v1/results?host_user_ref=<host_user_ref:1:8>',
  request_headers: { authorization: 'Bearer <sk_test:1>' },
  request_body: null,
  status: answer.status,
  response_headers: { 'content-type': 'application/json' },
  response_body: answer.body,
});

/** A target whose fixed window lets `limit` requests through, then refuses the rest; its clock never moves. */
function limitedTarget(limit: number) {
  let count = 0;
  const fetch = async () => {
    count += 1;
    const answer = count > limit ? limited : ok;
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  const timer = { now: () => 0, sleep: async () => {} };
  return new CassetteReplay({ baseUrl: 'http://127.0.0.1:1', key: 'sk_test_x', paced: true, fetch, timer });
}

const lines = (report: { groups: Array<{ route: string; recorded: string; replayed: string; count: number }> }) =>
  report.groups.map((g) => `${g.route}: ${g.recorded} -> ${g.replayed} x${g.count}`);

describe('CHOICE-66: conform replay of requests the recording had in flight together', () => {
  it('SES-10, CHOICE-66: the same request in flight several times is compared as a set: which one the upstream refused is not in the recording', async () => {
    // A burst against a limit of 3: the request that reached the proxy last reached the upstream
    // early (a kept-alive connection) and was answered 200, after two that were refused.
    const recorded = [
      exchange(1, 0, 9, ok),
      exchange(2, 1, 9, ok),
      exchange(4, 1, 10, limited),
      exchange(3, 2, 10, limited),
      exchange(5, 3, 12, ok),
    ];
    // Sent one at a time to a target with a limit of 4, the last one sent is the one refused.
    const report = await limitedTarget(4).replay(recorded);
    expect(lines(report)).toEqual(['DELETE /v1/results: 429 rate_limited -> 200 x1']);
    expect(report.differing).toBe(1);
  });

  it('CHOICE-66: requests that were not in flight together are compared one to one, and so is a cassette without answer times', async () => {
    // The second arrived after the first was answered: a 200 then a 429 replayed as 200, 200 is one difference.
    const apart = [exchange(1, 0, 5, ok), exchange(2, 6, 8, limited), exchange(3, 20, 25, ok)];
    expect(lines(await limitedTarget(2).replay(apart))).toEqual([
      'DELETE /v1/results: 429 rate_limited -> 200 x1',
      'DELETE /v1/results: 200 -> 429 rate_limited x1',
    ]);
    const unknown = [exchange(1, 0, undefined, ok), exchange(2, 0, undefined, limited), exchange(3, 0, undefined, ok)];
    expect(lines(await limitedTarget(2).replay(unknown))).toEqual([
      'DELETE /v1/results: 429 rate_limited -> 200 x1',
      'DELETE /v1/results: 200 -> 429 rate_limited x1',
    ]);
  });
});
