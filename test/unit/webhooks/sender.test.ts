import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { IDLE_MS, RESPONSE_EXCERPT_BYTES, WebhookSender, type SendOutcome, type SendRequest } from '../../../src/webhooks/sender.js';
import { Condition, pollUntil, within } from '../../helpers/wait.js';

/**
 * A WebhookSender on its own, against real receivers on loopback ports made here: each server (and
 * every socket it accepted) is closed after its test, so the sender's pooled connections end too.
 * One sender serves the whole file (its pools shared across tests, as an engine's are across
 * deliveries) and is closed after it.
 */
const sender = new WebhookSender();
afterAll(() => sender.close());

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Tracked {
  port: number;
  url: string;
  /** 'connection' events the server saw (TCP connections accepted). */
  connections(): number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0; the server and all its sockets go at the end of the test. */
async function listen(server: net.Server): Promise<Tracked> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  server.on('connection', (socket: net.Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }));
  closers.push(close);
  return { port, url: `http://127.0.0.1:${port}`, connections: () => connections, close };
}

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  req: http.IncomingMessage;
  res: http.ServerResponse;
}
type Answer = (request: Received) => void;

interface Receiver extends Tracked {
  received: Received[];
  arrived: Condition;
  /** Resolves once `count` requests (whole bodies) arrived. */
  waitFor(count: number): Promise<Received[]>;
}

/** An HTTP receiver that reads each request's whole body, records it, then lets `answer` reply (or not). */
async function receiver(answer: Answer = ({ res }) => res.end('ok')): Promise<Receiver> {
  const received: Received[] = [];
  const arrived = new Condition();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), req, res };
      received.push(request);
      arrived.notify();
      answer(request);
    });
  });
  const tracked = await listen(server);
  return {
    ...tracked,
    received,
    arrived,
    waitFor: (count) => arrived.until(`${count} request(s) at the receiver`, () => received.length >= count && received.slice(0, count)),
  };
}

/** A raw TCP "receiver" for answers an HTTP server would not give. */
async function rawServer(onSocket: (socket: net.Socket) => void): Promise<Tracked> {
  return listen(net.createServer(onSocket));
}

function closedSocket(socket: net.Socket): Promise<void> {
  return socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));
}

const hang: Answer = () => {};

/** Calls `answer` once per request `send` makes (its head, then its body '{"n":1}'), however the bytes are split. */
function eachRequest(socket: net.Socket, answer: () => void): void {
  let seen = '';
  socket.on('data', (chunk: Buffer) => {
    seen += chunk.toString('latin1');
    if (!seen.includes('\r\n\r\n') || !seen.endsWith('{"n":1}')) return;
    seen = '';
    answer();
  });
}

/**
 * The outcome of a send to a raw receiver that writes `answer` to every request and leaves the
 * connection open: sent twice, and each time over a new connection (the sender dropped the first).
 */
async function answeredWith(answer: string): Promise<SendOutcome> {
  const r = await rawServer((socket) => eachRequest(socket, () => socket.write(answer)));
  const url = `http://127.0.0.1:${r.port}/`;
  const first = await send(url, { timeoutMs: 5_000 });
  expect(await send(url, { timeoutMs: 5_000 })).toEqual({ ...first, latencyMs: expect.any(Number) });
  // The first connection was dropped: the second send came over another.
  expect(r.connections()).toBeGreaterThanOrEqual(2);
  return first;
}

function send(url: string, extra: Partial<SendRequest> = {}): Promise<SendOutcome> {
  return sender.send({ url, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"n":1}'), timeoutMs: 10_000, ...extra });
}

/** Every promise settles within `ms` (a hang becomes a failure that says so, not a test timeout). */
async function allWithin<T>(promises: Array<Promise<T>>, ms: number): Promise<T[]> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`some of ${promises.length} sends did not resolve within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.all(promises), bound]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a sender, against real loopback receivers', () => {
  it('a 2xx answer gives its status and body as the excerpt; the receiver gets POST, the path and query, the exact body bytes and headers', async () => {
    const r = await receiver(({ res }) => res.writeHead(202, { 'content-type': 'text/plain' }).end('thanks, got it'));
    const body = Buffer.concat([Buffer.from('{"id":"evt_1","name":"Zoë"}'), Buffer.from([0x00, 0xff, 0x0a])]);
    const headers = {
      'content-type': 'application/json',
      'service-signature': 'ab'.repeat(32),
      'service-event-id': 'evt_1',
      'user-agent': 'scanctl-test',
    };
    const out = await sender.send({ url: `${r.url}/hooks/in?a=1&b=two%20words`, headers, body, timeoutMs: 10_000 });
    expect(out).toMatchObject({ status: 202, error: null, excerpt: 'thanks, got it' });
    expect(typeof out.latencyMs).toBe('number');
    const [got] = await r.waitFor(1);
    expect(got!.method).toBe('POST');
    expect(got!.url).toBe('/hooks/in?a=1&b=two%20words');
    expect(got!.body.equals(body)).toBe(true);
    expect(got!.headers).toMatchObject(headers);
    expect(got!.headers['content-length']).toBe(String(body.length));
    expect(got!.headers.host).toBe(`127.0.0.1:${r.port}`);
  });

  it('an empty 2xx answer (204) gives an empty excerpt, not null', async () => {
    const r = await receiver(({ res }) => res.writeHead(204).end());
    expect(await send(`${r.url}/`)).toMatchObject({ status: 204, error: null, excerpt: '' });
  });

  it('WH-7: a 4xx or 5xx answer is an outcome with its status and excerpt, not an error', async () => {
    const r = await receiver(({ req, res }) => res.writeHead(req.url === '/gone' ? 410 : 503).end(`no: ${req.url}`));
    expect(await send(`${r.url}/gone`)).toMatchObject({ status: 410, error: null, excerpt: 'no: /gone' });
    expect(await send(`${r.url}/busy`)).toMatchObject({ status: 503, error: null, excerpt: 'no: /busy' });
  });

  it('WH-7: a 3xx answer is the outcome; the redirect is not followed', async () => {
    const target = await receiver();
    const r = await receiver(({ res }) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end('moved'));
    const out = await send(`${r.url}/hook`);
    expect(out).toMatchObject({ status: 302, error: null, excerpt: 'moved' });
    expect(r.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect(target.connections()).toBe(0);
  });

  it(`keeps at most RESPONSE_EXCERPT_BYTES (${RESPONSE_EXCERPT_BYTES}) of a large chunked answer`, async () => {
    const answer = Buffer.from(Array.from({ length: 100 * 1024 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));
    const r = await receiver(({ res }) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // no content-length: chunked
      for (let at = 0; at < answer.length; at += 4096) res.write(answer.subarray(at, at + 4096));
      res.end();
    });
    const out = await send(`${r.url}/big`);
    expect(out.status).toBe(200);
    expect(out.error).toBeNull();
    expect(Buffer.byteLength(out.excerpt!)).toBe(RESPONSE_EXCERPT_BYTES);
    expect(out.excerpt).toBe(answer.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'));
  });

  it('a character the 1 KiB cut falls inside is left out whole, never shown as U+FFFD', async () => {
    const answers: Record<string, Buffer> = {
      // 'é' is 2 bytes (1023-1024), the emoji 4 (1022-1025): both cross the cut at 1024.
      '/two': Buffer.from(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}é and more`),
      '/four': Buffer.from(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 2)}\u{1F600} and more`),
      // Ends exactly at the cut with a whole 'é': nothing is left out.
      '/whole': Buffer.from(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 2)}é`),
      // Not cut: an answer whose own bytes are not UTF-8 shows them as U+FFFD, as before.
      '/invalid': Buffer.from([0x6f, 0x6b, 0xc3]),
    };
    const r = await receiver(({ url, res }) => res.end(answers[url]));
    expect((await send(`${r.url}/two`)).excerpt).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 1));
    expect((await send(`${r.url}/four`)).excerpt).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 2));
    expect((await send(`${r.url}/whole`)).excerpt).toBe(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 2)}é`);
    expect((await send(`${r.url}/invalid`)).excerpt).toBe('ok\uFFFD');
  });

  it('CHOICE-24: an unrequested 100 Continue (deliveries never send Expect) fails the attempt with an error that says what undici can tell', async () => {
    const r = await rawServer((socket) =>
      socket.once('data', () =>
        socket.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
      ),
    );
    expect(await send(`http://127.0.0.1:${r.port}/`, { timeoutMs: 5_000 })).toMatchObject({
      status: null,
      error: expect.stringMatching(/^unreadable answer: the connection closed after bytes that are not a complete answer .*100 Continue/),
    });
  });

  it('a 101 Switching Protocols (no upgrade was asked for) or a line that is not HTTP is no answer, with an error that says so', async () => {
    // A 101 that undici reads as an answer is named; one it refuses itself (Connection: upgrade) is said as undici can tell it.
    expect(await answeredWith('HTTP/1.1 101 Switching Protocols\r\nupgrade: ws\r\n\r\n')).toMatchObject({
      status: null,
      error: 'unreadable answer: 101 Switching Protocols to a request that asked for no upgrade',
    });
    expect(await answeredWith('HTTP/1.1 101 Switching Protocols\r\nupgrade: ws\r\nconnection: upgrade\r\n\r\n')).toMatchObject({
      status: null,
      error: expect.stringMatching(/^unreadable answer: the connection closed after bytes that are not a complete answer .*a 101/),
    });
    expect(await answeredWith('SSH-2.0-OpenSSH_9.6\r\n\r\n')).toMatchObject({
      status: null,
      error: 'unreadable answer: not an HTTP/1.x answer (it does not begin with "HTTP/1.")',
    });
  });

  it('answers framed every way HTTP/1.1 allows: by length, chunked (with extensions and trailers), or until the connection closes', async () => {
    const answers = [
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello',
      'HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n3;ext=1\r\nhel\r\n2\r\nlo\r\n0\r\nx-trailer: 1\r\n\r\n',
      'HTTP/1.0 202 Accepted\r\n\r\nhello',
    ];
    const expected = [
      { status: 200, excerpt: 'hello' },
      { status: 201, excerpt: 'hello' },
      { status: 202, excerpt: 'hello' },
    ];
    for (const [i, answer] of answers.entries()) {
      // Byte by byte, so every state of the reader meets the end of a chunk.
      const r = await rawServer((socket) => socket.once('data', () => void writeByByte(socket, answer)));
      expect(await send(`http://127.0.0.1:${r.port}/`, { timeoutMs: 5_000 })).toMatchObject({ ...expected[i], error: null });
    }
  });

  it('a connection is used again only when the answer allows it: not after Connection: close, a close-delimited body, bytes past the answer, or a Keep-Alive timeout under a second', async () => {
    const cases: Array<[string, number]> = [
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok', 1],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok', 3],
      // RFC 9112 section 9.6: close wins, whatever other Connection field follows.
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\nconnection: keep-alive\r\n\r\nok', 3],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n', 3],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nkeep-alive: timeout=1\r\n\r\nok', 3],
      ['HTTP/1.0 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok', 1],
    ];
    for (const [answer, connections] of cases) {
      const r = await rawServer((socket) => eachRequest(socket, () => socket.write(answer)));
      for (let i = 0; i < 3; i++) {
        expect(await send(`http://127.0.0.1:${r.port}/`, { timeoutMs: 5_000 })).toMatchObject({ status: 200, error: null, excerpt: 'ok' });
      }
      // Reusable: undici's pool may open a second connection when a send follows the previous answer at once.
      expect({ answer, connections: r.connections() }).toEqual({
        answer,
        connections: connections === 1 ? expect.toBeOneOf([1, 2]) : connections,
      });
    }
  });

  it('a head too large, a bad Content-Length or a bad chunk is no answer (or, past the head, an answer cut short), and drops the connection', async () => {
    expect(await answeredWith(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(70_000)}`)).toMatchObject({
      status: null,
      error: expect.stringMatching(/^unreadable answer: status line and headers larger than 64 KiB/),
    });
    // Obsolete line folding (RFC 9112 section 5.2) is refused, never read as a value of the line above.
    expect(await answeredWith('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive,\r\n close\r\n\r\nok')).toMatchObject({
      status: null,
      error: expect.stringMatching(/^unreadable answer: /),
    });
    expect(await answeredWith('HTTP/1.1 200 OK\ncontent-length: 2\n\nok')).toMatchObject({
      status: null,
      error: 'unreadable answer: a line ends in a bare LF, not CRLF',
    });
    expect(await answeredWith('HTTP/1.1 200 OK\r\ncontent-length: 2, 3\r\n\r\nok')).toMatchObject({
      status: null,
      error: 'unreadable answer: an invalid Content-Length, or a body of another length',
    });
    expect(await answeredWith('HTTP/1.1 500 Oops\r\ntransfer-encoding: chunked\r\n\r\n2\r\nnoZZ\r\n')).toMatchObject({
      status: 500,
      error: null,
      // node:http may drop the body bytes parsed in the same read as the bad chunk line.
      excerpt: expect.stringMatching(/^(no)?$/),
    });
  });

  it('a receiver that never answers times out with status null; a later send to the same origin still works', async () => {
    const r = await receiver((request) => {
      if (r.received.length > 1) request.res.end('second');
    });
    const out = await send(`${r.url}/slow`, { timeoutMs: 200 });
    expect(out).toMatchObject({ status: null, error: 'timed out after 200 ms waiting for the answer', excerpt: null });
    // Giving up drops the hung connection.
    await closedSocket(r.received[0]!.req.socket);
    expect(await send(`${r.url}/slow`, { timeoutMs: 5_000 })).toMatchObject({ status: 200, error: null, excerpt: 'second' });
  });

  it('a receiver that answers its headers but never ends the body times out too (the whole answer must come in time)', async () => {
    const r = await receiver(({ res }) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    expect(await send(`${r.url}/`, { timeoutMs: 200 })).toMatchObject({
      status: null,
      error: "timed out after 200 ms reading the answer's body",
      excerpt: null,
    });
  });

  it('sends queued behind all the pool connections to a hung origin time out too; none hangs, and the origin still works after', async () => {
    let hanging = true;
    const r = await receiver(({ res }) => {
      if (!hanging) res.end('back');
    });
    const sends = Array.from({ length: 70 }, (_, i) => send(`${r.url}/q${i}`, { timeoutMs: 300 }));
    const outcomes = await allWithin(sends, 10_000);
    for (const out of outcomes)
      expect(out).toMatchObject({
        status: null,
        error: expect.stringMatching(/^timed out after 300 ms (waiting for|connecting)/),
        excerpt: null,
      });
    // The queued ones reached the receiver at most as requests the sender aborted: never more than 70 in all.
    expect(r.received.length).toBeLessThanOrEqual(70);
    hanging = false;
    expect(await send(`${r.url}/after`, { timeoutMs: 5_000 })).toMatchObject({ status: 200, error: null, excerpt: 'back' });
  });

  it('aborting the signal resolves at once with the shutdown error and drops the connection', async () => {
    const r = await receiver(hang);
    const controller = new AbortController();
    const pending = send(`${r.url}/`, { timeoutMs: 60_000, signal: controller.signal });
    const [got] = await r.waitFor(1);
    controller.abort();
    expect(await pending).toMatchObject({ status: null, error: 'aborted: the emulator is shutting down', excerpt: null });
    await closedSocket(got!.req.socket);
  });

  it('an already-aborted signal resolves without sending anything', async () => {
    const r = await receiver(({ req, res }) => res.end(`got ${req.url}`));
    const out = await send(`${r.url}/never`, { signal: AbortSignal.abort() });
    expect(out).toMatchObject({ status: null, error: 'aborted: the emulator is shutting down', excerpt: null });
    // A later send arrives, and it is the only request the receiver ever saw.
    expect(await send(`${r.url}/later`)).toMatchObject({ status: 200, excerpt: 'got /later' });
    expect(r.received.map((q) => q.url)).toEqual(['/later']);
  });

  it('a signal shared by many sends gets one listener in all, however many sends come and go', async () => {
    const r = await receiver();
    const controller = new AbortController();
    let listeners = 0;
    const { addEventListener, removeEventListener } = controller.signal;
    controller.signal.addEventListener = function (this: AbortSignal, ...args: Parameters<typeof addEventListener>) {
      listeners += 1;
      return addEventListener.apply(this, args);
    };
    controller.signal.removeEventListener = function (this: AbortSignal, ...args: Parameters<typeof removeEventListener>) {
      listeners -= 1;
      return removeEventListener.apply(this, args);
    };
    for (let round = 0; round < 2; round++) {
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => send(`${r.url}/`, { signal: controller.signal })));
      for (const out of outcomes) expect(out.status).toBe(200);
      expect(listeners).toBe(1);
    }
  });

  it('a port where nothing listens gives connection refused', async () => {
    const spare = await listen(net.createServer());
    await spare.close();
    expect(await send(`http://127.0.0.1:${spare.port}/hook`, { timeoutMs: 5_000 })).toMatchObject({
      status: null,
      error: 'connection refused',
      excerpt: null,
    });
  });

  it('a receiver that closes the connection without answering gives status null and an error', async () => {
    const s = await rawServer((socket) => socket.on('data', () => socket.destroy()));
    const out = await send(`${s.url}/hook`, { timeoutMs: 5_000 });
    expect(out.status).toBeNull();
    expect(out.excerpt).toBeNull();
    expect(typeof out.error, `error: ${JSON.stringify(out.error)}`).toBe('string');
    expect(out.error!.length, `error: ${JSON.stringify(out.error)}`).toBeGreaterThan(0);
    expect(out.error, `error: ${JSON.stringify(out.error)}`).not.toMatch(/^timed out/);
  });

  it('an answer cut short mid-body keeps its status and what came of its body, with no error', async () => {
    const r = await receiver(({ res }) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('0123456789', () => res.socket?.destroy());
    });
    expect(await send(`${r.url}/`, { timeoutMs: 5_000 })).toMatchObject({ status: 200, error: null, excerpt: '0123456789' });
  });

  it('an interim 1xx answer is not the answer: 103 then a dropped connection is no answer, 103 then 200 is a 200', async () => {
    const dropped = await rawServer((socket) =>
      socket.once('data', () => socket.write('HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n', () => socket.destroy())),
    );
    const out = await send(`http://127.0.0.1:${dropped.port}/`, { timeoutMs: 5_000 });
    expect(out.status).toBeNull();
    expect(out.error).toEqual(expect.any(String));
    const answered = await rawServer((socket) =>
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok',
        ),
      ),
    );
    expect(await send(`http://127.0.0.1:${answered.port}/`, { timeoutMs: 5_000 })).toMatchObject({
      status: 200,
      error: null,
      excerpt: 'ok',
    });
  });

  it("credentials in the URL go as Basic authorization, percent-decoded (over a header of that name); the framing headers are the client's own", async () => {
    const r = await receiver();
    const headers = { 'content-type': 'application/json', authorization: 'Bearer other', host: 'elsewhere', 'content-length': '999' };
    const out = await send(`http://user:p%40ss@127.0.0.1:${r.port}/x`, { headers });
    expect(out).toMatchObject({ status: 200, error: null });
    const [got] = await r.waitFor(1);
    expect(got!.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    expect(got!.headers.host).toBe(`127.0.0.1:${r.port}`);
    expect(got!.body.toString()).toBe('{"n":1}');
    expect(got!.url).toBe('/x');
  });

  it('a header value with a line break is refused before anything is sent', async () => {
    const r = await receiver();
    const out = await send(r.url, { headers: { 'x-evil': 'a\r\nx-injected: 1' } });
    expect(out).toMatchObject({ status: null, error: 'a header value with a line break cannot be sent' });
    expect(r.connections()).toBe(0);
  });

  it('an invalid URL or a non-HTTP protocol is refused at once, without a connection', async () => {
    for (const url of ['ftp://x', 'not a url', '', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const out = await send(url);
      expect(out, url).toMatchObject({ status: null, latencyMs: 0, excerpt: null });
      expect(out.error, url).toMatch(/^invalid webhook URL/);
    }
  });

  it('sequential sends to one receiver reuse a keep-alive connection', async () => {
    const r = await receiver(({ req, res }) => res.end(`got ${req.url}`));
    for (let i = 0; i < 20; i += 1) {
      expect(await send(`${r.url}/n${i}`)).toMatchObject({ status: 200, error: null, excerpt: `got /n${i}` });
    }
    expect(r.received).toHaveLength(20);
    expect(r.connections()).toBeLessThanOrEqual(2);
  });

  it(`CHOICE-9: idle keep-alive connections are closed after ${IDLE_MS} ms, though the receiver never closes them`, async () => {
    const server = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    server.keepAliveTimeout = 0; // never closes an idle connection itself, as Go's net/http
    const r = await listen(server);
    const sockets: net.Socket[] = [];
    server.on('connection', (socket: net.Socket) => sockets.push(socket));
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => send(`${r.url}/idle`)));
    for (const out of outcomes) expect(out.status).toBe(200);
    expect(sockets.length).toBeGreaterThan(0);
    const closed = new Condition();
    let open = sockets.length;
    const idleFrom = performance.now();
    for (const socket of sockets) socket.once('close', () => (open--, closed.notify()));
    await closed.until('the sender to close its idle connections', () => open === 0, IDLE_MS + 4_000);
    expect(performance.now() - idleFrom).toBeGreaterThan(IDLE_MS - 500);
  });
});

/** Writes an answer one byte at a time (every state of a reader meets the end of a chunk), then ends an HTTP/1.0 one. */
async function writeByByte(socket: net.Socket, answer: string): Promise<void> {
  for (const byte of Buffer.from(answer)) await new Promise<void>((done) => socket.write(Buffer.from([byte]), () => done()));
  if (answer.startsWith('HTTP/1.0')) socket.end();
}

describe("a sender's close", () => {
  it('closes at once, though an aborted attempt still waits on a connection being opened (a TLS handshake never answered)', async () => {
    const r = await rawServer(() => {}); // accepts the connection, never says a word of TLS
    const own = new WebhookSender();
    const abort = new AbortController();
    const sending = own.send({
      url: `https://127.0.0.1:${r.port}/`,
      headers: {},
      body: Buffer.from('{}'),
      timeoutMs: 30_000,
      signal: abort.signal,
    });
    await pollUntil('the connection to be open', () => r.connections() === 1, 5_000);
    abort.abort();
    expect(await sending).toMatchObject({ status: null, error: 'aborted: the emulator is shutting down' });
    // A graceful close would wait for the 30 s connect timeout of that connection.
    expect(
      await within(
        own.close().then(() => 'closed'),
        2_000,
      ),
    ).toBe('closed');
    expect(own.openConnections()).toEqual({ active: 0, idle: 0, queued: 0 });
  });
});
