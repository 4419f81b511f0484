import http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES } from '../../../../src/contract/choices.js';
import { startEmulatorServer, type RunningServer } from '../../../../src/emulator/server.js';
import { DEMO, expectErrorBody } from '../../../helpers/emulator.js';

// Through a socket the body limit is decided from the headers and the body read from the socket
// itself (src/emulator/http/body-limit.ts): the same answers as in-process (errors.test.ts beside this file).
describe('CHOICE-3: request bodies through a socket', () => {
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
  });
  afterAll(() => server.close());

  /** POSTs /v1/sessions with the body written in `pieces`, one per turn of the event loop. */
  const post = (pieces: string[], headers: Record<string, string>) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(`${server.url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json', ...headers },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      const write = (i: number) => {
        if (i === pieces.length) return void req.end();
        req.write(pieces[i]);
        setImmediate(() => write(i + 1));
      };
      write(0);
    });

  it('CHOICE-3: a body sent in pieces with a Content-Length, and one sent chunked, are read whole', async () => {
    // Whitespace inside the JSON makes the body larger than one socket read; any piece alone is not JSON.
    const body = `{"host_user_ref":${' '.repeat(300_000)}"member_ü_1"}`;
    const pieces = [body.slice(0, 100_000), body.slice(100_000, 300_010), body.slice(300_010)];
    const withLength = await post(pieces, { 'content-length': String(Buffer.byteLength(body)) });
    expect(withLength.status).toBe(201);
    expect(withLength.body.session_token).toMatch(/^vst_/);
    const chunked = await post(pieces, { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(201);
  });

  it('CHOICE-3: an empty body with Content-Length: 0 is 400 invalid_json', async () => {
    const res = await post([], { 'content-length': '0' });
    expect(res.status).toBe(400);
    expect(expectErrorBody(res.body).code).toBe('invalid_json');
  });

  it('CHOICE-3: over the limit is 413 body_too_large, whether the Content-Length says so or a chunked body grows past it', async () => {
    const chunked = await post(['{"host_user_ref":"', 'a'.repeat(CHOICES.maxBodyBytes), '"}'], { 'transfer-encoding': 'chunked' });
    expect(chunked.status).toBe(413);
    expect(expectErrorBody(chunked.body).code).toBe('body_too_large');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      socket.write(
        `POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${DEMO.testSecret}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${CHOICES.maxBodyBytes + 1}\r\nConnection: close\r\n\r\n{"host`,
      );
      setImmediate(() => socket.end());
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(expectErrorBody(JSON.parse(answer.split('\r\n\r\n')[1]!)).code).toBe('body_too_large');
  });
});
