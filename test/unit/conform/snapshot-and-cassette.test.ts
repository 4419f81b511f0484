import { describe, expect, it } from 'vitest';
import type { ConformReport } from '../../../src/contract/conformance.js';
import { normalizeBody } from '../../../src/conform/normalize.js';
import { Redactor } from '../../../src/conform/redact.js';
import { buildSnapshot, diffSnapshots } from '../../../src/conform/snapshot.js';

const report = (verdict: 'pass' | 'diverges'): ConformReport => ({
  object: 'conform_report',
  plan: {
    target: 't',
    emulator: true,
    run_prefix: 'conform_00000000',
    probes: 1,
    skipped: 0,
    requests: 1,
    creates: [],
    max_rate_per_second: 10,
  },
  passed: verdict === 'pass' ? 1 : 0,
  diverged: verdict === 'pass' ? 0 : 1,
  skipped: 0,
  outcomes: [{ rule: 'SES-2', title: 'mint', verdict, reason: '' }],
  requests_sent: 1,
  cleanup_problems: [],
});

const mint = (token: string, expires: string, prefix: string) => ({
  rule: 'SES-2',
  method: 'POST',
  path: `/v1/sessions?member=${prefix}_ses2`,
  status: 201,
  body: JSON.stringify({ session_token: token, expires_at: expires }),
});

describe('conform snapshots', () => {
  it('SES-2: two runs answering alike normalize alike: tokens, times and the run prefix become their shape', () => {
    const a = buildSnapshot(report('pass'), [mint('vst_3kTq9ZbWcY1xN7pL0aRm5sHe', '2026-11-22T10:15:00.000Z', 'conform_1a2b3c4d')]);
    const b = buildSnapshot(report('pass'), [mint('vst_Zz9ZbWcY1xN7pL0aRm5sHe00', '2026-12-01T08:00:00Z', 'conform_99887766')]);
    expect(a.rules[0]!.answers[0]).toEqual({
      request: 'POST /v1/sessions?member=conform_<run>_ses2',
      status: 201,
      body: { expires_at: '<iso-time>', session_token: 'vst_<24>' },
    });
    expect(diffSnapshots(a, b).map((d) => d.state)).toEqual(['same']);
  });

  it('SES-2: conform diff names the rule and the answer that differs, and a rule only one side has', () => {
    const a = buildSnapshot(report('pass'), [mint('vst_3kTq9ZbWcY1xN7pL0aRm5sHe', '2026-11-22T10:15:00.000Z', 'conform_1a2b3c4d')]);
    const other = { ...mint('vst_3kTq9ZbWcY1xN7pL0aRm5sHe', '', 'conform_1a2b3c4d'), status: 400, body: '{"error":{"code":"x"}}' };
    const b = buildSnapshot(report('diverges'), [other]);
    const [difference] = diffSnapshots(a, b);
    expect(difference!.state).toBe('differs');
    expect(difference!.detail).toContain('verdict pass vs diverges');
    expect(difference!.detail).toContain('status 201 vs 400');
    expect(diffSnapshots(a, { ...b, rules: [] })[0]!.state).toBe('only-a');
  });

  it('an error message is prose: only its presence counts', () => {
    expect(normalizeBody('{"error":{"code":"invalid_api_key","message":"No such key: sk_test_...0001"}}')).toEqual({
      error: { code: 'invalid_api_key', message: '<text>' },
    });
  });
});

describe('CHOICE-66: what a cassette keeps', () => {
  it('CHOICE-66: credentials, tokens, cookies, signatures, challenges and member data never reach a cassette line; the same secret gets the same pseudonym', () => {
    const redact = new Redactor();
    const secret = 'sk_test_demoSecretKey00000000000001';
    const token = 'vst_3kTq9ZbWcY1xN7pL0aRm5sHe';
    const headers = redact.headers({
      authorization: `Bearer ${secret}`,
      cookie: 'scanctl_portal=abcdef0123; x=1',
      'service-signature': 'ab'.repeat(32),
    });
    const body = redact.body(
      JSON.stringify({
        session_token: token,
        host_user_ref: 'alice@example.com',
        attestation: { challenge: 'chl_secretchallenge' },
        result: { bodyFatPercent: 21.4, girths: { waistCm: 81.5 } },
      }),
    );
    const path = redact.path('/v1/results?host_user_ref=alice%40example.com');
    const all = JSON.stringify([headers, body, path]);
    for (const leaked of [secret, token, 'abcdef0123', 'alice', 'chl_secretchallenge', '21.4', '81.5']) expect(all).not.toContain(leaked);
    expect(headers).toEqual({ authorization: 'Bearer <sk_test:1>', cookie: '<cookie:1>' });
    expect(JSON.parse(body)).toEqual({
      session_token: '<vst:1>',
      host_user_ref: '<host_user_ref:1:17>',
      attestation: { challenge: '<challenge:1:19>' },
      result: { bodyFatPercent: 0, girths: { waistCm: 0 } },
    });
    // The same member in a query is the same pseudonym: a replay sends one made-up member for both.
    expect(path).toBe('/v1/results?host_user_ref=<host_user_ref:1:17>');
    expect(redact.text(`again ${secret}`)).toBe('again <sk_test:1>');
  });
});
