import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, startServe, type ServeProcess } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/net.js';
import { tempDir } from '../helpers/temp.js';

const DEMO_SECRETS = [
  'sk_test_demoSecretKey00000000000001',
  'pk_test_demoPublishableKey000000001',
  'sk_live_demoSecretKey00000000000001',
  'pk_live_demoPublishableKey000000001',
  'whsec_demoSigningSecret0000000000000001',
];
/** Quick enough for a test, still under the 50 a second the injected emulator allows. */
const RATE = ['--max-rate', '40'];
/** The differences injected into one emulator, and the rules each one changes. */
const AFFECTED = ['DEV-7', 'SES-10', 'WH-10'];

interface Outcome {
  rule: string;
  verdict: 'pass' | 'diverges' | 'skipped';
  reason: string;
}

const control = (serve: ServeProcess, method: string, path: string, body: unknown) =>
  fetch(`${serve.baseUrl}/_scanctl${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** `scanctl record` as a child process: its proxy URL, and a stop that waits for the cassette to be closed. */
async function startRecord(upstream: string, out: string) {
  const child = spawn(process.execPath, [BIN, 'record', '--upstream', upstream, '--out', out, '--json'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    url: (JSON.parse(first) as { url: string }).url,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const diverged = (outcomes: Outcome[]) =>
  outcomes
    .filter((o) => o.verdict === 'diverges')
    .map((o) => o.rule)
    .sort();

describe('scanctl conform, record and replay against real emulators on 127.0.0.1', () => {
  let dir: string;
  let a: ServeProcess;
  let b: ServeProcess;
  let injected: ServeProcess;

  beforeAll(async () => {
    dir = tempDir('scanctl-conform-');
    [a, b, injected] = await Promise.all([
      startServe(['--seed', '1']),
      startServe(['--seed', '2']),
      // Another rate limit than the documented 100 a second.
      startServe(['--seed', '3', '--rate-limit', '50']),
    ]);
    // A fault that changes one error code, and deliveries that reach the receiver twice.
    const fault = await control(injected, 'POST', '/faults', {
      method: 'PUT',
      path: '/v1/scans/:scan_id/result',
      status: 403,
      code: 'result_upload_refused',
      // Once: the first upload (DEV-7's, refused either way) gets another code; later uploads are left alone.
      count: 1,
    });
    expect(fault.status).toBe(201);
    expect((await control(injected, 'PUT', '/apps/app_demo/chaos', { duplicate: 1, seed: 1 })).status).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a, b, injected].map((serve) => serve?.stop()));
  });

  it('two emulators with different seeds conform to each other: 0 divergences, every skip explained, conform diff finds nothing', async () => {
    const runs = await Promise.all(
      [a, b].map((serve, i) =>
        runCli(['conform', '--base-url', serve.baseUrl, ...RATE, '--json', '--snapshot', join(dir, `seed${i + 1}.json`)]),
      ),
    );
    for (const result of runs) {
      const report = JSON.parse(result.stdout) as { diverged: number; passed: number; outcomes: Outcome[] };
      expect(report.outcomes.filter((o) => o.verdict === 'diverges')).toEqual([]);
      expect(result.code, result.stderr).toBe(0);
      expect(report.passed).toBeGreaterThan(25);
      for (const skipped of report.outcomes.filter((o) => o.verdict === 'skipped')) expect(skipped.reason.length).toBeGreaterThan(10);
      // One line per rule of docs/rules.md (the CHOICE-* rows aside).
      const rules = new Set(report.outcomes.map((o) => o.rule));
      const documented = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8').match(/^\| ([A-Z]+-\d+) \|/gm)!;
      for (const row of documented.map((r) => r.slice(2, -2)).filter((r) => !r.startsWith('CHOICE'))) expect(rules).toContain(row);
    }
    const diff = await runCli(['conform', 'diff', join(dir, 'seed1.json'), join(dir, 'seed2.json')]);
    expect(diff.code, diff.stdout).toBe(0);
    expect(diff.stdout).toMatch(/\b0 differ\b/);
  }, 120_000);

  it('SES-10, DEV-7, WH-10: with another rate limit, a fault on an error code and duplicated deliveries, exactly those rules diverge; conform diff and a recorded cassette replayed say the same, and the cassette holds no secret', async () => {
    const cassette = join(dir, 'injected.ndjson');
    const recorder = await startRecord(injected.baseUrl, cassette);
    const run = await runCli(['conform', '--base-url', recorder.url, ...RATE, '--json', '--snapshot', join(dir, 'injected.json')]);
    expect(await recorder.stop()).toBe(0);

    const report = JSON.parse(run.stdout) as { outcomes: Outcome[] };
    expect(diverged(report.outcomes), JSON.stringify(report.outcomes.filter((o) => o.verdict === 'diverges'))).toEqual(AFFECTED);
    expect(run.code, run.stderr).toBe(6);
    const dev7 = report.outcomes.find((o) => o.rule === 'DEV-7')!;
    expect(dev7.reason).toContain('expected 403 results_delivery_disabled, got 403 result_upload_refused');

    const diff = await runCli(['conform', 'diff', join(dir, 'seed1.json'), join(dir, 'injected.json'), '--json']);
    expect(diff.code).toBe(6);
    const differing = (JSON.parse(diff.stdout) as { rules: Array<{ rule: string; state: string }> }).rules.filter(
      (r) => r.state !== 'same',
    );
    expect(differing.map((r) => r.rule).sort()).toEqual(AFFECTED);

    // The cassette: nothing secret it carried, whatever the shape.
    const text = readFileSync(cassette, 'utf8');
    for (const secret of DEMO_SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\b(sk|pk)_(test|live)_[A-Za-z0-9]{16,}/);
    expect(text).not.toMatch(/\bvst_[A-Za-z0-9]{16,}/);
    expect(text).not.toMatch(/\bwhsec_[A-Za-z0-9]{16,}/);
    expect(text).not.toMatch(/scanctl_portal=[^<]/);
    expect(text).not.toMatch(/service-signature/i);
    expect(text).not.toMatch(/"host_user_ref\\?":\\?"conform_/);
    // Each exchange says when it was answered: a replay knows which requests were in flight together.
    for (const line of text.trim().split('\n')) {
      const { at_ms, answered_ms } = JSON.parse(line) as { at_ms: number; answered_ms: number };
      expect(answered_ms).toBeGreaterThanOrEqual(at_ms);
    }

    // Replayed against a clean emulator: the differences on the wire are the same two (the duplicated
    // deliveries went to the receiver, not through the proxy).
    const replay = await runCli(['conform', 'replay', cassette, '--base-url', a.baseUrl, '--json']);
    expect(replay.code, replay.stderr + replay.stdout).toBe(6);
    const groups = (JSON.parse(replay.stdout) as { groups: Array<{ route: string; recorded: string; replayed: string }> }).groups;
    expect(groups.map((g) => `${g.route}: ${g.recorded} -> ${g.replayed}`).sort()).toEqual([
      'DELETE /v1/results: 429 rate_limited -> 200',
      'PUT /v1/scans/{scan_id}/result: 403 result_upload_refused -> 403 results_delivery_disabled',
    ]);
  }, 180_000);

  it('against a target that is not an emulator, the probes that need its clock, control plane or attestation are skipped with the reason, the rest pass', async () => {
    // The public routes of a fresh emulator (its clock never moved), as the service would answer: no /_scanctl.
    const upstream = await startServe(['--seed', '4']);
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/_scanctl')) return res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
        );
        void fetch(`${upstream.baseUrl}${req.url}`, {
          method: req.method,
          headers: headers as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        }).then(async (answer) =>
          res
            .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' })
            .end(Buffer.from(await answer.arrayBuffer())),
        );
      });
    });
    const { port, close } = await listenOnLoopback(server);
    try {
      const result = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}`, '--key', DEMO_SECRETS[0]!, ...RATE, '--json']);
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as {
        plan: { emulator: boolean; requests: number };
        requests_sent: number;
        outcomes: Outcome[];
      };
      expect(report.plan.emulator).toBe(false);
      expect(report.plan.requests).toBeLessThan(40);
      // What the plan said, plus one DELETE /v1/results per member at the end.
      expect(report.requests_sent).toBeGreaterThanOrEqual(report.plan.requests);
      expect(report.requests_sent).toBeLessThan(report.plan.requests + 25);
      const reason = (rule: string) => report.outcomes.find((o) => o.rule === rule)!;
      expect(reason('SES-5')).toMatchObject({ verdict: 'skipped', reason: expect.stringMatching(/needs the clock.*--slow/) });
      expect(reason('SES-9')).toMatchObject({ verdict: 'skipped', reason: expect.stringMatching(/control plane/) });
      expect(reason('DEV-4')).toMatchObject({ verdict: 'skipped', reason: expect.stringMatching(/attested device/) });
      expect(reason('WH-1')).toMatchObject({ verdict: 'skipped', reason: expect.stringMatching(/--portal-cookie|--receiver-url/) });
      expect(reason('SES-7').verdict).toBe('pass');
      expect(reason('DEV-2').verdict).toBe('pass');
    } finally {
      await close();
      await upstream.stop();
    }
  }, 60_000);

  it('bad input is one line and exit 2: not a snapshot, not a cassette, no upstream', async () => {
    const notJson = join(dir, 'not-a-snapshot.json');
    const badLine = join(dir, 'bad.ndjson');
    writeFileSync(notJson, '{"object":"something else"}');
    writeFileSync(badLine, '{"seq":1}\n');
    const diff = await runCli(['conform', 'diff', notJson, notJson]);
    const replay = await runCli(['conform', 'replay', badLine, '--base-url', a.baseUrl]);
    const record = await runCli(['record', '--out', join(dir, 'x.ndjson')]);
    for (const result of [diff, replay, record]) {
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
    }
    expect(diff.stderr).toContain('is not a conform snapshot');
    expect(replay.stderr).toContain('bad.ndjson:1 is not a cassette line');
    expect(record.stderr).toContain('--upstream');
  });

  it('a live key is refused unless --allow-live, before any request', async () => {
    const result = await runCli(['conform', '--base-url', 'http://127.0.0.1:9', '--key', 'sk_live_demoSecretKey00000000000001']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing a live key/);
    expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('CHOICE-65, CHOICE-67: the plan says the pace (10 a second unless told) up front; SES-2 measures from the emulator clock, moved by earlier runs; --junit writes one testcase per rule', async () => {
    const junit = join(dir, 'conform.xml');
    const rules = ['AUTH-2', 'DEL-3', 'SES-2', 'SES-4'].flatMap((rule) => ['--rule', rule]);
    const result = await runCli(['conform', '--base-url', a.baseUrl, ...rules, '--junit', junit]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^3 probes run, 1 skipped; about 3 requests, at most 10 a second$/m);
    expect(result.stdout).toMatch(/^pass +SES-2 .*expires 900 s after the answer/m);
    expect(result.stdout).toMatch(/^pass +AUTH-2 /m);
    expect(result.stdout).toMatch(/^skipped +SES-4 .*not observable/m);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="scanctl conform" tests="4" failures="0"');
    expect(xml.match(/<skipped /g)).toHaveLength(1);
  });
});
