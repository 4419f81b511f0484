import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';

/** Lines of stderr that are not the "running" notice. */
const errorLines = (stderr: string) => stderr.trim().split('\n');

describe('scanctl conform against an app whose quota or rate limit runs out mid-run', () => {
  let limited: ServeProcess;
  let quota: ServeProcess;

  beforeAll(async () => {
    // 5 requests a second per key on a frozen clock: its second (CHOICE-2's window) lasts until a probe
    // moves the clock, so the 6th request is refused however slowly a loaded machine sends them.
    // And a daily quota of 3 sessions.
    [limited, quota] = await Promise.all([startServe(['--seed', '5', '--rate-limit', '5', '--frozen-clock']), startServe(['--seed', '6'])]);
    const set = await fetch(`${quota.baseUrl}/_scanctl/apps/app_demo/quota`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ daily_session_quota: 3 }),
    });
    expect(set.status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([limited, quota].map((serve) => serve?.stop()));
  });

  it('SES-10, CHOICE-2: a rate limit below the pace stops the run with one line naming it and --max-rate, exit 3, not every later rule diverging', async () => {
    const result = await runCli(['conform', '--base-url', limited.baseUrl]);
    expect(result.code, result.stdout + result.stderr).toBe(3);
    const lines = errorLines(result.stderr);
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^scanctl: conform stopped at [A-Z]+-\d+: the target's rate limit refused a request \(\w+ \/v1\/[^:]+: 429 rate_limited\), .*--max-rate below 10, or a higher rate limit/,
    );
    // What ran before the stop is on stdout; no rule diverges there.
    expect(result.stdout).not.toMatch(/^diverges/m);
  }, 60_000);

  it('SES-9: a daily quota that runs out stops the run with one line naming the quota and what to change, also under --json', async () => {
    for (const json of [false, true]) {
      const result = await runCli(['conform', '--base-url', quota.baseUrl, '--max-rate', '40', ...(json ? ['--json'] : [])]);
      expect(result.code, result.stdout + result.stderr).toBe(3);
      const message =
        /conform stopped at [A-Z]+-\d+: the app's daily session quota ran out \(POST \/v1\/sessions: 429 quota_exceeded\), .*raise the app's daily session quota \(scanctl app update --quota N\)/;
      if (json) {
        // Under --json the error is the one JSON object on stdout.
        const error = JSON.parse(result.stdout) as { error: { message: string }; exit_code: number };
        expect(error).toMatchObject({ exit_code: 3, error: { message: expect.stringMatching(message) } });
      } else {
        expect(errorLines(result.stderr), result.stderr).toHaveLength(1);
        expect(result.stderr).toMatch(message);
        expect(result.stdout).not.toMatch(/^diverges/m);
      }
    }
  }, 120_000);
});
