import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli.js';

const SECRET = 'whsec_demoSigningSecret0000000000000001';

type Mode = 'good' | 'reserialize' | 'no-verify' | 'reject-replay' | 'ordered' | 'strict-fields' | 'redirect' | 'slow';

interface Receiver {
  url: string;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: string; status: number }>;
  close(): Promise<void>;
}

/** A developer's receiver, good or broken in one chosen way, on 127.0.0.1 port 0. */
async function receiver(mode: Mode, secret = SECRET): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const seen = new Set<string>();
  const completed = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const answer = (status: number, text = '') => {
        requests.push({ headers: req.headers, body: raw.toString('utf8'), status });
        if (status === 302) res.writeHead(302, { location: '/elsewhere' });
        else res.writeHead(status);
        res.end(text);
      };
      if (mode === 'redirect') return answer(302);
      if (mode !== 'no-verify') {
        const signed = mode === 'reserialize' ? Buffer.from(JSON.stringify(JSON.parse(raw.toString('utf8')))) : raw;
        const expected = createHmac('sha256', secret).update(signed).digest('hex');
        const given = String(req.headers['service-signature'] ?? '');
        if (given.length !== 64 || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return answer(400, 'bad signature');
      }
      const event = JSON.parse(raw.toString('utf8'));
      const id = String(req.headers['service-event-id']);
      if (mode === 'reject-replay' && seen.has(id)) return answer(409, 'already have it');
      if (mode === 'ordered' && event.type === 'scan.results_available' && !completed.has(event.data.scan_id))
        return answer(422, 'unknown scan');
      if (mode === 'strict-fields' && Object.keys(event).some((k) => !['id', 'type', 'created_at', 'data'].includes(k)))
        return answer(400, 'unknown field');
      seen.add(id);
      if (event.type === 'scan.completed') completed.add(event.data.scan_id);
      if (mode === 'slow') return void setTimeout(() => answer(200), 400);
      answer(200, 'ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    requests,
    close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

describe('scanctl webhook check (built CLI, real receivers)', () => {
  let serve: ServeProcess;
  const receivers: Receiver[] = [];
  const open = async (mode: Mode) => {
    const r = await receiver(mode);
    receivers.push(r);
    return r;
  };
  beforeAll(async () => {
    serve = await startServe(['--db', ':memory:']);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await serve?.stop();
  });

  it('WH-1..WH-8, WH-12: a correct receiver passes every check (secret from the emulator app), exit 0', async () => {
    const r = await open('good');
    const result = await runCli(['webhook', 'check', r.url, '--base-url', serve.baseUrl, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ object: 'webhook_check', app_id: 'app_demo', failed: 0, passed: 10, timeout_ms: 10_000 });
    expect(report.checks.map((c: { id: string }) => c.id)).toEqual([
      'signed-scan-completed',
      'signed-scan-failed',
      'signed-results-available',
      'wrong-signature',
      'unsigned',
      'reserialized-body',
      'replay',
      'results-before-completed',
      'unknown-fields',
      'answer-time',
    ]);
    // What the receiver saw: the spec's body and headers (WH-1, WH-5, WH-6), each event type once signed correctly.
    const first = r.requests[0]!;
    const body = JSON.parse(first.body);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(Object.keys(body.data).sort()).toEqual(['app_id', 'host_user_ref', 'model_version', 'occurred_at', 'scan_id', 'status']);
    expect(first.headers['service-event-id']).toBe(body.id);
    expect(first.headers['service-event-type']).toBe(body.type);
    expect(first.headers['service-signature']).toBe(createHmac('sha256', SECRET).update(first.body).digest('hex'));
    expect(r.requests.filter((q) => q.headers['service-signature'] === undefined)).toHaveLength(1);
    const replayed = r.requests.filter((q) => q.headers['service-event-id'] === body.id);
    expect(replayed).toHaveLength(2);
    expect(replayed[1]!.body).toBe(replayed[0]!.body);
  });

  it('WH-4: a receiver that verifies a re-serialization fails reserialized-body; exit 6, the table names the reason, JUnit written', async () => {
    const r = await open('reserialize');
    const junit = join(serve.dir, 'check.xml');
    const result = await runCli(['webhook', 'check', r.url, '--base-url', serve.baseUrl, '--junit', junit]);
    expect(result.code).toBe(6);
    expect(result.stdout).toMatch(/fail\s+a body re-serialized after signing is refused\s+\d+ ms\s+accepted with 200/);
    expect(result.stdout).toContain('9 passed, 1 failed');
    expect(result.stderr).toContain('scanctl: 1 of 10 webhook checks failed: reserialized-body');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain('<testsuites name="scanctl webhook check" tests="10" failures="1"');
    expect(xml.match(/<testcase /g)).toHaveLength(10);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('WH-4: a receiver that does not verify at all fails the three forgery checks', async () => {
    const r = await open('no-verify');
    const result = await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json']);
    expect(result.code).toBe(6);
    const failed = JSON.parse(result.stdout)
      .checks.filter((c: { passed: boolean }) => !c.passed)
      .map((c: { id: string }) => c.id);
    expect(failed).toEqual(['wrong-signature', 'unsigned', 'reserialized-body']);
  });

  it('WH-5, WH-8: refusing a replayed Service-Event-Id fails the replay check', async () => {
    const r = await open('reject-replay');
    const result = await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json']);
    const report = JSON.parse(result.stdout);
    expect(result.code).toBe(6);
    expect(report.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { id: string }) => c.id)).toEqual(['replay']);
    expect(report.checks.find((c: { id: string }) => c.id === 'replay').reason).toContain('answered 409');
  });

  it('WH-12: requiring scan.completed first fails results-before-completed', async () => {
    const r = await open('ordered');
    const report = JSON.parse((await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json'])).stdout);
    expect(report.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { id: string }) => c.id)).toEqual([
      'results-before-completed',
    ]);
  });

  it('WH-1: refusing unknown fields fails unknown-fields', async () => {
    const r = await open('strict-fields');
    const report = JSON.parse((await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json'])).stdout);
    expect(report.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { id: string }) => c.id)).toEqual(['unknown-fields']);
  });

  it('WH-7: a redirect is not an acknowledgement', async () => {
    const r = await open('redirect');
    const report = JSON.parse((await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json'])).stdout);
    const first = report.checks[0];
    expect(first).toMatchObject({ passed: false, status: 302 });
    expect(first.reason).toContain('redirects are not followed');
  });

  it('answer time: a receiver slower than the per-attempt timeout fails answer-time', async () => {
    const r = await open('slow');
    const result = await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--timeout', '150ms', '--json']);
    const report = JSON.parse(result.stdout);
    expect(result.code).toBe(6);
    const time = report.checks.find((c: { id: string }) => c.id === 'answer-time');
    expect(time.passed).toBe(false);
    expect(time.reason).toMatch(/got no answer within 150 ms/);
  });

  it('an unreachable receiver fails every check with the reason; bad flags exit 2', async () => {
    const r = await receiver('good');
    await r.close();
    const result = await runCli(['webhook', 'check', r.url, '--secret', SECRET, '--json']);
    expect(result.code).toBe(6);
    const report = JSON.parse(result.stdout);
    expect(report.passed).toBe(0);
    expect(report.checks[0].reason).toContain('connection refused');
    expect((await runCli(['webhook', 'check', 'ftp://x', '--secret', SECRET])).code).toBe(2);
    const badSecret = await runCli(['webhook', 'check', r.url, '--secret', 'nope']);
    expect(badSecret.code).toBe(2);
    expect(badSecret.stderr).toContain('whsec_');
  });
});
