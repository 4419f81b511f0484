import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CassetteExchange } from '../../../src/contract/conformance.js';
import { ReplayRefused, targetUrl, unsendable } from '../../../src/conform/sendable.js';
import { runCommand } from '../../helpers/cli-in-process.js';
import { DEMO, testEmulator } from '../../helpers/emulator.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('scanctl-replay-target-');
const line = (overrides: Partial<CassetteExchange> = {}): CassetteExchange => ({
  seq: 1,
  at_ms: 0,
  method: 'DELETE',
  path: '/v1/results?host_user_ref=<host_user_ref:1:12>',
  request_headers: { authorization: 'Bearer <sk_test:1>' },
  request_body: null,
  status: 200,
  response_headers: { 'content-type': 'application/json' },
  response_body: '{"host_user_ref":"<host_user_ref:1:12>","deleted":0}',
  ...overrides,
});
let files = 0;
function cassette(...lines: Array<CassetteExchange | string>): string {
  const file = join(dir, `c${++files}.ndjson`);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

/** A fetch that counts what it is asked to send: a refused cassette sends nothing. */
function countingFetch() {
  const sent: Array<{ url: string; authorization: string | null }> = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: input instanceof Request ? input.url : input.toString(),
      authorization: new Headers(init?.headers).get('authorization'),
    });
    return new Response('{"host_user_ref":"x","deleted":0}', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { sent, fetch };
}

const KEY = 'sk_test_replayTargetKey0000000001';
const replay = (file: string, base: string, extra: string[] = [], env: Record<string, string> = {}) => {
  const target = countingFetch();
  return runCommand(['conform', 'replay', file, '--no-pace', '--base-url', base, '--key', KEY, ...extra], {
    fetch: target.fetch,
    env,
  }).then((result) => ({ ...result, sent: target.sent }));
};

describe('CHOICE-66: a replay stays on --base-url', () => {
  it('CHOICE-66: a recorded path that names another port, host or scheme is refused, exit 2 naming the line, before any request', async () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:7226', ':9999/v1/results'],
      ['http://127.0.0.1', '.evil.example/v1/results'],
      ['http://127.0.0.1', '@evil.example/v1/results'],
      ['http://127.0.0.1:7226', '//evil.example:7226/v1/results'],
      ['http://127.0.0.1:7226', '/\\evil.example/v1/results'],
      ['http://127.0.0.1:7226', 'http://evil.example/v1/results'],
      ['http://127.0.0.1:7226', '/v1/results\r\nHost: evil.example'],
    ];
    for (const [base, path] of cases) {
      // A good line first: nothing at all goes out, not even the lines before the bad one.
      const file = cassette(line(), line({ seq: 2, at_ms: 5, path }));
      const result = await replay(file, base);
      expect(result.code, `${base} ${JSON.stringify(path)}`).toBe(2);
      expect(result.stderr).toContain(`${file}:2 cannot be replayed`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.sent).toEqual([]);
    }
  });

  it('CHOICE-66: the URL is built with the URL API: it keeps a base path, and no path of any text leaves the base origin', () => {
    expect(targetUrl('http://127.0.0.1:7226/prefix/', '/v1/results?a=1').href).toBe('http://127.0.0.1:7226/prefix/v1/results?a=1');
    fc.assert(
      fc.property(
        fc.constantFrom('http://127.0.0.1:7226', 'http://127.0.0.1', 'https://api.example.com/base'),
        fc.string(),
        (base, path) => {
          try {
            expect(targetUrl(base, path).origin).toBe(new URL(base).origin);
          } catch (error) {
            expect(error).toBeInstanceOf(ReplayRefused);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('CHOICE-66: a line that parses but cannot be sent is exit 2 naming it, not a bug: header names, CR LF, a GET body, a pseudonym too long, a method', async () => {
    const bad: Array<[Partial<CassetteExchange>, RegExp]> = [
      [{ request_headers: { 'x bad': '1' } }, /its header name "x bad" is not a token/],
      [{ request_headers: { 'x-a\r\nx-b': '1' } }, /its header name .* is not a token/],
      [{ request_headers: { 'x-a': 'one\r\nx-b: two' } }, /its header x-a holds CR, LF or NUL/],
      [{ method: 'GET', request_body: '{}' }, /a GET request cannot have a body/],
      [{ path: '/v1/results?host_user_ref=<host_user_ref:1:99999999999>' }, /its pseudonym .* is longer than 4096/],
      [{ method: 'GE T' }, /its method .* is not an HTTP method/],
      [{ method: 'CONNECT' }, /its method CONNECT cannot be sent/],
    ];
    for (const [overrides, reason] of bad) {
      expect(unsendable(line(overrides), 'http://127.0.0.1:7226')).toMatch(reason);
      const file = cassette('', line(), line({ seq: 2, ...overrides }));
      const result = await replay(file, 'http://127.0.0.1:7226');
      expect(result.code, JSON.stringify(overrides)).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${file}:3 cannot be replayed: ${reason.source.replace(/^\/|\/$/g, '')}`));
      expect(result.stderr).not.toContain('bug');
      expect(result.sent).toEqual([]);
    }
  });

  it('CHOICE-66: an empty cassette says so and exits 2', async () => {
    for (const file of [cassette(''), cassette('', '  ', '')]) {
      const result = await replay(file, 'http://127.0.0.1:7226');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${file} holds no exchanges`);
      expect(result.sent).toEqual([]);
    }
  });
});

describe('CHOICE-66: the key of a replay', () => {
  it('CHOICE-66: --key wins over SCANCTL_SECRET_KEY and stands for the cassette key', async () => {
    const file = cassette(line(), line({ seq: 2, at_ms: 1 }));
    const result = await replay(file, 'http://127.0.0.1:7226', [], { SCANCTL_SECRET_KEY: 'sk_test_fromTheEnvironment000001' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.sent.map((s) => s.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it('CHOICE-66: against an emulator, a --key it does not know stops the replay (exit 2), it is not replaced by its test key', async () => {
    const emulator = testEmulator();
    const file = cassette(line(), line({ seq: 2, at_ms: 1 }));
    const unknown = await runCommand(['conform', 'replay', file, '--no-pace', '--key', 'sk_test_unknownToTheEmulator0001'], { emulator });
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toMatch(/does not know the key given \(401 on #1, recorded 200\)/);
    // Its own key replays the same cassette alike.
    const known = await runCommand(['conform', 'replay', file, '--no-pace', '--key', DEMO.testSecret], { emulator });
    expect(known.code, known.stderr + known.stdout).toBe(0);
  });
});
