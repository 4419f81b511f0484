import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFetchError } from '../../../src/client/http.js';
import { requestOverNode } from '../../../src/client/node-request.js';
import { readServerSentEvents } from '../../../src/client/sse.js';

const TLS = new URL('../../fixtures/tls/', import.meta.url);
const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, server: Server = createServer()): Promise<string> {
  server.on('request', handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const get = { method: 'GET', headers: { accept: 'application/json' } };

describe("the CLI's requests on node:http (requestOverNode): what fetch answered, without loading undici", () => {
  it('sends the method, headers and body; answers the status, headers (any case, set-cookie joined) and body', async () => {
    const host = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2']);
        res.writeHead(201, { 'Content-Type': 'application/json', 'Retry-After': '3' });
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }));
      });
    });
    const answer = await requestOverNode(`http://${host}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/json' },
      body: '{"host_user_ref":"m"}',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('Content-Type')).toBe('application/json');
    expect(answer.headers.get('set-cookie')).toBe('a=1; Path=/, b=2');
    expect(answer.headers.get('x-missing')).toBeNull();
    expect(JSON.parse(await answer.text())).toEqual({ method: 'POST', auth: 'Bearer sk_test_x', body: '{"host_user_ref":"m"}' });
  });

  it('follows no redirect (as fetch with redirect: manual): the 302 is the answer', async () => {
    const host = await serve((_req, res) => res.writeHead(302, { location: 'http://example.invalid/' }).end());
    const answer = await requestOverNode(`http://${host}/`, get);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('http://example.invalid/');
  });

  it('answers bytes whole (arrayBuffer), as a model download reads them', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const host = await serve((_req, res) => res.end(bytes));
    const answer = await requestOverNode(`http://${host}/`, get);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
  });

  it('a server that cannot be reached is the socket error, as fetch gives it: ECONNREFUSED', async () => {
    const host = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error: unknown = await requestOverNode(`http://${host}/`, get).catch((e: unknown) => e);
    expect(describeFetchError(error)).toBe('ECONNREFUSED');
  });

  it('a timeout signal rejects with its reason, before and after the headers: "timed out"', async () => {
    const host = await serve((req, res) => {
      if (req.url === '/slow-body') res.writeHead(200).write('part');
    });
    const early = await requestOverNode(`http://${host}/never`, { ...get, signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect(describeFetchError(early)).toBe('timed out');
    const answer = await requestOverNode(`http://${host}/slow-body`, { ...get, signal: AbortSignal.timeout(100) });
    expect(describeFetchError(await answer.text().catch((e: unknown) => e))).toBe('timed out');
  });

  it('https goes through node:https with certificate checks on: a self-signed server is refused by its TLS code', async () => {
    const tls = createTlsServer({
      key: readFileSync(new URL('receiver-key.pem', TLS)),
      cert: readFileSync(new URL('receiver-cert.pem', TLS)),
    });
    const host = await serve((_req, res) => res.end('{}'), tls);
    const error: unknown = await requestOverNode(`https://${host}/`, get).catch((e: unknown) => e);
    expect(describeFetchError(error)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('a stream body is read event by event, and an error in onEvent closes the connection', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const host = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: delivery\ndata: {"n":1}\n\n');
      res.write('data: two\r\n\r\n');
      req.socket.on('close', closed);
    });
    const seen: string[] = [];
    const answer = await requestOverNode(`http://${host}/stream`, get);
    const read = readServerSentEvents(answer, (event) => {
      seen.push(`${event.event}:${event.data}`);
      if (seen.length === 2) throw new Error('enough');
    });
    await expect(read).rejects.toThrow('enough');
    expect(seen).toEqual(['delivery:{"n":1}', 'message:two']);
    await gone;
  });
});
