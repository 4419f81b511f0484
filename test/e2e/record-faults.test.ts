import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CassetteExchange } from '../../src/contract/conformance.js';
import { BIN } from '../helpers/cli.js';
import { listenOnLoopback } from '../helpers/net.js';
import { tempDir } from '../helpers/temp.js';
import { Condition, within } from '../helpers/wait.js';

/**
 * An upstream on 127.0.0.1 that misbehaves by path: resets, closes in the middle of a body,
 * holds a request until the test lets go, sets two cookies. `held` counts the requests it holds.
 */
function faultyUpstream() {
  const heldResponses: http.ServerResponse[] = [];
  const held = new Condition();
  const server = http.createServer((req, res) => {
    if (req.url === '/reset') return req.socket.destroy();
    if (req.url === '/mid-body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      // The first bytes go out, then the connection, 89 bytes short.
      return res.write('{"partial":', () => req.socket.destroy());
    }
    if (req.url === '/mid-chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.write('{"partial":', () => req.socket.destroy());
    }
    if (req.url === '/hang') {
      heldResponses.push(res);
      return held.notify();
    }
    if (req.url === '/cookies') {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly']);
      res.setHeader('content-type', 'application/json');
      return res.end('{"ok":true}');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  return { server, held, heldResponses };
}

async function startRecord(upstream: string, out: string) {
  const child = spawn(process.execPath, [BIN, 'record', '--upstream', upstream, '--out', out, '--upstream-timeout', '1', '--json'], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const stdout: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  lines.on('line', (line) => stdout.push(line));
  return { url: (JSON.parse(first) as { url: string }).url, child, exited, stdout, stderr: () => stderr };
}

const cassetteLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => CassetteExchange.parse(JSON.parse(line)));

describe('scanctl record under upstream faults (real processes, loopback)', () => {
  let dir: string;
  let upstream: ReturnType<typeof faultyUpstream>;
  let upstreamUrl: string;
  let closeUpstream: () => Promise<void>;

  beforeAll(async () => {
    dir = tempDir('scanctl-record-faults-');
    upstream = faultyUpstream();
    const listening = await listenOnLoopback(upstream.server);
    upstreamUrl = `http://127.0.0.1:${listening.port}`;
    closeUpstream = listening.close;
  });
  afterAll(async () => {
    await closeUpstream();
  });

  it('CHOICE-66: a reset, a close mid-body and an upstream slower than --upstream-timeout get the client 502/504 in the error body; record keeps serving and records neither; two Set-Cookie reach the client and the cassette', async () => {
    const out = join(dir, 'faults.ndjson');
    const record = await startRecord(upstreamUrl, out);
    try {
      const cases: Array<[string, number, string]> = [
        ['/reset', 502, 'upstream_failed'],
        ['/mid-body', 502, 'upstream_failed'],
        ['/mid-chunked', 502, 'upstream_failed'],
        ['/hang', 504, 'upstream_timeout'],
      ];
      for (const [path, status, code] of cases) {
        const answer = await fetch(`${record.url}${path}`);
        expect(answer.status, path).toBe(status);
        expect(answer.headers.get('content-type')).toBe('application/json');
        const body = (await answer.json()) as { error: { type: string; code: string; message: string } };
        expect(body.error).toMatchObject({ type: 'api_error', code });
        // Still serving after each.
        expect((await fetch(`${record.url}/ok`)).status).toBe(200);
      }
      const cookies = await fetch(`${record.url}/cookies`);
      expect(cookies.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
      await cookies.text();
    } finally {
      record.child.kill('SIGTERM');
      expect(await record.exited).toBe(0);
      for (const res of upstream.heldResponses.splice(0)) res.destroy();
    }
    expect(record.stderr()).not.toMatch(/TypeError|terminated|\bat .*\.js:\d+/);
    const lines = cassetteLines(out);
    expect(lines.map((l) => l.path)).toEqual(['/ok', '/ok', '/ok', '/ok', '/cookies']);
    expect(lines.at(-1)!.response_headers['set-cookie']).toEqual(['<cookie:1>', '<cookie:2>']);
  }, 30_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`CHOICE-66: ${signal} stops record within a second while the upstream holds a request; the cassette is whole`, async () => {
      const out = join(dir, `stop-${signal}.ndjson`);
      const record = await startRecord(upstreamUrl, out);
      expect((await fetch(`${record.url}/ok`)).status).toBe(200);
      const heldBefore = upstream.heldResponses.length;
      const pending = fetch(`${record.url}/hang`).then(
        (r) => r.status,
        () => 'closed',
      );
      await upstream.held.until('the upstream to hold the request', () => upstream.heldResponses.length > heldBefore);
      record.child.kill(signal);
      const code = await within(record.exited, 1_000);
      for (const res of upstream.heldResponses.splice(0)) res.destroy();
      if (code === undefined) record.child.kill('SIGKILL');
      expect(code, `${signal}: still running a second later`).toBe(0);
      expect(await pending).not.toBe(200);
      expect(record.stdout.map((l) => JSON.parse(l) as { object: string; exchanges: number })).toEqual([
        { object: 'recorder_stopped', exchanges: 1 },
      ]);
      expect(cassetteLines(out).map((l) => l.path)).toEqual(['/ok']);
    }, 20_000);
});
