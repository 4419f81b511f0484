import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer, type RunningServer } from '../../../src/emulator/server.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator } from '../../helpers/emulator.js';
import { mint } from '../../helpers/device.js';

describe('ERR-1: every 401 carries WWW-Authenticate (RFC 9110)', () => {
  it('ERR-1: publishable_key_used, invalid_api_key, portal_login_required, bearer_not_accepted and the device 401s all send a challenge', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    const cases: Array<[string, string, Record<string, unknown>, string, string]> = [
      ['POST', '/v1/sessions', { key: DEMO.testPublishable, json: { host_user_ref: 'm' } }, 'publishable_key_used', 'Bearer'],
      ['POST', '/v1/sessions', { key: 'sk_test_nobody000000000000000000', json: { host_user_ref: 'm' } }, 'invalid_api_key', 'Bearer'],
      ['DELETE', '/v1/results?host_user_ref=m', {}, 'invalid_api_key', 'Bearer'],
      ['PATCH', `/v1/apps/${DEMO.appId}`, { json: {} }, 'portal_login_required', 'Cookie cookie-name="scanctl_portal"'],
      [
        'PATCH',
        `/v1/apps/${DEMO.appId}`,
        { key: DEMO.testSecret, json: {}, headers: { cookie } },
        'bearer_not_accepted',
        'Cookie cookie-name="scanctl_portal"',
      ],
      ['POST', '/v1/device/challenge', {}, 'session_token_invalid', 'Bearer'],
      ['POST', '/v1/device/challenge', { key: DEMO.testSecret }, 'secret_key_not_accepted', 'Bearer'],
      ['POST', '/v1/device/challenge', { key: 'vst_nobody' }, 'session_token_invalid', 'Bearer'],
    ];
    for (const [method, path, options, code, challenge] of cases) {
      const res = await emu.call(method, path, options);
      expect(res.status, code).toBe(401);
      expect(expectErrorBody(res.body).code).toBe(code);
      expect(res.headers.get('www-authenticate'), code).toBe(challenge);
    }
    const token = await mint(emu);
    await emu.advance(16 * 60_000);
    const expired = await emu.call('POST', '/v1/device/challenge', { key: token });
    expect(expired.body.error.code).toBe('session_token_expired');
    expect(expired.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('CHOICE-15: exact paths and a true Allow', () => {
  it('CHOICE-15: a trailing slash is another path: 404 for every method, never a 405 claiming a method that answers 404', async () => {
    const emu = testEmulator();
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      for (const path of ['/v1/sessions/', '/v1/results/', '/v1/models/', `/v1/apps/${DEMO.appId}/`, '/_scanctl/info/']) {
        const res = await emu.call(method, path, { key: DEMO.testSecret });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('route_not_found');
      }
    }
  });

  it('CHOICE-15: 405 names exactly the methods that answer, HEAD wherever GET does, and each one it names is answered', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    for (const [path, allow] of [
      ['/v1/sessions', 'POST'],
      ['/v1/results', 'DELETE'],
      ['/v1/models', 'GET, HEAD'],
      ['/_scanctl/info', 'GET, HEAD'],
      [`/_scanctl/apps/${DEMO.appId}/keys`, 'GET, HEAD, POST'],
    ] as const) {
      for (const method of ['OPTIONS', 'PUT']) {
        const res = await emu.call(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      }
      for (const method of allow.split(', ')) {
        const res = await emu.app.request(path, {
          method,
          headers: { authorization: `Bearer ${path.startsWith('/v1/models') ? token : DEMO.testSecret}` },
        });
        expect([404, 405], `${method} ${path} is named in Allow`).not.toContain(res.status);
      }
    }
  });
});

describe('ERR-1 below the router (CHOICE-16): what the HTTP parser refuses is the error body too', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEmulatorServer({
      port: 0,
      host: '127.0.0.1',
      dbPath: ':memory:',
      fixturesPath: null,
      reset: false,
      rateLimitPerSecond: 0,
      version: 'test',
      stateFile: null,
    });
    // As serve does right after its ready line. (A client that half-closes before the adapter has
    // loaded, in the first milliseconds, is answered only if it waits: Node ends a half-closed
    // socket whose request is still pending.)
    await server.requestListener.warm();
  });
  afterAll(() => server.close());

  /** Sends raw bytes and reads until the server closes. */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write(bytes);
      // Half-close: the server has everything; it answers and closes.
      setImmediate(() => socket.end());
    });

  const parse = (response: string) => {
    const [head, body] = response.split('\r\n\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head!)![1]);
    return { status, head: head!, body: JSON.parse(body!) };
  };

  it('ERR-1, CHOICE-16: HTTP/1.0 without Host is 400 request_malformed as JSON', async () => {
    const res = parse(await raw('GET /_scanctl/info HTTP/1.0\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.head).toMatch(/content-type: application\/json/i);
    expect(expectErrorBody(res.body)).toMatchObject({ type: 'invalid_request_error', code: 'request_malformed' });
  });

  it('ERR-1, CHOICE-16: a Content-Length shorter than the body (the rest is garbage) and a malformed Content-Length are 400 JSON', async () => {
    const host = `127.0.0.1:${server.port}`;
    const short = await raw(
      `POST /v1/sessions HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}garbage here\r\n\r\n`,
    );
    const answers = short.split(/(?=HTTP\/1\.1 \d{3} )/);
    const last = parse(answers.at(-1)!);
    expect(last.status).toBe(400);
    expect(expectErrorBody(last.body).code).toBe('request_malformed');
    for (const header of ['Content-Length: abc', 'Content-Length: 5\r\nContent-Length: 6']) {
      const res = parse(await raw(`POST /v1/sessions HTTP/1.1\r\nHost: ${host}\r\n${header}\r\n\r\n{}`));
      expect(res.status, header).toBe(400);
      expect(expectErrorBody(res.body).code, header).toBe('request_malformed');
    }
  });

  it('ERR-1, CHOICE-16: headers over the limit are 431 headers_too_large as JSON, not an empty answer', async () => {
    const res = parse(await raw(`GET /_scanctl/info HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(expectErrorBody(res.body)).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
  });
});
