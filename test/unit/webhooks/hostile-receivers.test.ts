import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../../src/index.js';
import type { WebhookSender } from '../../../src/webhooks/sender.js';
import { Condition, pollUntil } from '../../helpers/wait.js';

/**
 * serve (in this process, on real sockets) against receivers that misbehave on purpose. Each case:
 * what the attempt records, the retry scheduled, serve answering an unrelated call while the
 * attempt is on the wire, and every socket the attempts opened closed afterwards.
 * A short attempt timeout (CHOICE-23) keeps the hanging cases fast. Only the cases that test the
 * timeout run against it: a case that expects an answer (or an unreadable one) gets the default 10 s,
 * so a busy machine that stalls a receiver for 300 ms cannot turn its answer into a timeout.
 */
const TIMEOUT_MS = 300;

/** Every sender this file's emulators made (each engine owns one): the leak check counts their connections. */
const senders = vi.hoisted(() => [] as WebhookSender[]);
vi.mock('../../../src/webhooks/sender.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/webhooks/sender.js')>();
  class CountedSender extends real.WebhookSender {
    constructor() {
      super();
      senders.push(this);
    }
  }
  return { ...real, WebhookSender: CountedSender };
});

function openConnections(): { active: number; idle: number; queued: number } {
  const open = { active: 0, idle: 0, queued: 0 };
  for (const sender of senders) {
    const { active, idle, queued } = sender.openConnections();
    open.active += active;
    open.idle += idle;
    open.queued += queued;
  }
  return open;
}
const START = '2026-03-01T12:00:00.000Z';
const RETRY_AT = '2026-03-01T12:00:30.000Z';
const TLS = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));

interface Hostile {
  url: string;
  /** Sockets the receiver holds open now; notified on every connection and close. */
  open: () => number;
  changed: Condition;
  close(): Promise<void>;
}

async function serve(server: net.Server, scheme: 'http' | 'https', host = '127.0.0.1'): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const changed = new Condition();
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', () => {});
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      changed.notify();
    });
    changed.notify();
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}/hook`,
    open: () => sockets.size,
    changed,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** A raw TCP receiver: `onRequest` gets the socket once the first bytes of a request arrive. */
const raw = (onRequest: (socket: Socket) => void, scheme: 'http' | 'https' = 'http') =>
  serve(
    net.createServer((socket) => socket.once('data', () => onRequest(socket))),
    scheme,
  );
/** A receiver that accepts TCP and never says anything, even to a TLS ClientHello. */
const silent = (scheme: 'http' | 'https') =>
  serve(
    net.createServer((socket) => socket.resume()),
    scheme,
  );
const drip = (socket: Socket, bytes: Buffer, everyMs: number) => {
  let at = 0;
  const timer = setInterval(
    () => (at < bytes.length && !socket.destroyed ? socket.write(bytes.subarray(at, ++at)) : clearInterval(timer)),
    everyMs,
  );
  socket.on('close', () => clearInterval(timer));
};

interface Case {
  name: string;
  start: () => Promise<Hostile>;
  /** What the first attempt records. */
  status: number | null;
  error: RegExp | null;
  /** Whether the delivery is retried (false: it succeeded). */
  retried?: boolean;
  /** Deliveries sent to it (all of them counted in the leak check). */
  count?: number;
}

const redirectTarget = { hits: 0 };
const CASES: Case[] = [
  {
    name: 'hangs (reads the request, never answers)',
    start: () => raw(() => {}),
    status: null,
    error: /^timed out after 300 ms waiting for the answer$/,
  },
  {
    name: 'stalls in the head',
    start: () => raw((s) => s.write('HTTP/1.1 200 OK\r\ncontent-')),
    status: null,
    error: /^timed out after 300 ms waiting for the answer$/,
  },
  {
    name: 'stalls in the body',
    start: () => raw((s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial')),
    status: null,
    error: /^timed out after 300 ms reading the answer's body$/,
  },
  {
    name: 'trickles a byte a second',
    start: () => raw((s) => drip(s, Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), 1_000)),
    status: null,
    error: /^timed out after 300 ms waiting for the answer$/,
  },
  {
    name: 'answers garbage',
    start: () => raw((s) => s.write('SSH-2.0-OpenSSH_9.6\r\n\r\n')),
    status: null,
    error: /^unreadable answer: not an HTTP\/1\.x answer/,
  },
  {
    name: 'answers with bare LF line endings',
    start: () => raw((s) => s.write('HTTP/1.1 200 OK\ncontent-length: 2\n\nok')),
    status: null,
    error: /^unreadable answer: a line ends in a bare LF, not CRLF/,
  },
  {
    name: 'sends an endless chunked body',
    start: () =>
      raw((s) => {
        s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
        const timer = setInterval(() => s.write('400\r\n' + 'x'.repeat(0x400) + '\r\n'), 5);
        s.on('close', () => clearInterval(timer));
      }),
    status: null,
    error: /^timed out after 300 ms reading the answer's body$/,
  },
  {
    name: 'sends a 100 KB header',
    start: () => raw((s) => s.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(100_000)}\r\n\r\n`)),
    status: null,
    error: /^unreadable answer: status line and headers larger than 64 KiB/,
  },
  {
    name: 'sends a 10 MB body (64 KiB read, 1 KiB kept, the connection closed)',
    start: () =>
      serve(
        http.createServer((req, res) => req.resume().on('end', () => res.end(Buffer.alloc(10 * 1024 * 1024, 0x61)))),
        'http',
      ),
    status: 200,
    error: null,
    retried: false,
    count: 4,
  },
  { name: 'resets the connection (RST)', start: () => raw((s) => s.resetAndDestroy()), status: null, error: /^connection reset$/ },
  {
    name: 'closes the connection without a word',
    start: () => raw((s) => s.end()),
    status: null,
    error: /^connection closed before an answer$/,
  },
  {
    name: 'redirects (never followed)',
    start: async () => {
      const target = await serve(
        http.createServer((_req, res) => (redirectTarget.hits++, res.end('ok'))),
        'http',
      );
      const hostile = await serve(
        http.createServer((req, res) => req.resume().on('end', () => res.writeHead(302, { location: target.url }).end('moved'))),
        'http',
      );
      return { ...hostile, close: async () => (await hostile.close(), await target.close()) };
    },
    status: 302,
    error: /^HTTP 302$/,
  },
  {
    name: 'holds the TLS handshake open',
    start: () => silent('https'),
    status: null,
    error: /^timed out after 300 ms connecting \(TCP or TLS handshake\)$/,
  },
  {
    name: 'presents a certificate no authority vouches for',
    start: () =>
      serve(
        https.createServer({ key: readFileSync(`${TLS}receiver-key.pem`), cert: readFileSync(`${TLS}receiver-cert.pem`) }, (_q, r) =>
          r.end('ok'),
        ),
        'https',
      ),
    status: null,
    error: /^TLS: the receiver's certificate is not trusted \(.*self-signed certificate/,
  },
  {
    name: 'listens on [::1] and hangs',
    start: () =>
      serve(
        net.createServer((s) => s.on('data', () => {})),
        'http',
        '::1',
      ),
    status: null,
    error: /^timed out after 300 ms waiting for the answer$/,
  },
];

/** An emulator with a webhook already sent once: each case resends that event to its receiver. */
interface Sender {
  emu: EmulatorHandle;
  eventId: string;
}
let hasty: Sender;
let patient: Sender;
let sent = 0;

async function sender(webhookAttemptTimeoutMs?: number): Promise<Sender> {
  const emu = await startEmulator({ clock: { start: START, frozen: true }, webhookAttemptTimeoutMs });
  const first = await serve(
    http.createServer((req, res) => req.resume().on('end', () => res.end('ok'))),
    'http',
  );
  await emu.updateApp({ webhook_url: first.url });
  await emu.simulateScan({ user: 'member_1' });
  const [delivery] = await emu.waitForDeliveries();
  await first.close();
  return { emu, eventId: delivery!.event_id };
}

async function resend({ emu, eventId }: Sender): Promise<void> {
  const response = await fetch(`${emu.baseUrl}/_scanctl/webhooks/events/${eventId}/resend`, { method: 'POST' });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  [hasty, patient] = await Promise.all([sender(TIMEOUT_MS), sender()]);
});

afterAll(async () => {
  await Promise.all([hasty?.emu.close(), patient?.emu.close()]);
});

describe('hostile receivers: every wait bounded, every socket closed, serve responsive', () => {
  for (const c of CASES) {
    it(`a receiver that ${c.name}: ${c.status ?? 'no status'}, ${c.error ?? 'no error'}`, async () => {
      const via = c.error?.source.includes('timed out') ? hasty : patient;
      const { emu, eventId } = via;
      const hostile = await c.start();
      try {
        await emu.updateApp({ webhook_url: hostile.url });
        const before = new Set((await emu.deliveries({ eventId })).map((d) => d.id));
        const count = c.count ?? 14;
        for (let i = 0; i < count; i++) await resend(via);
        sent += count;
        // While the attempts are on the wire (the receiver holds their connections), serve answers.
        await hostile.changed.until('a connection from serve', () => hostile.open() > 0);
        const info = await fetch(`${emu.baseUrl}/_scanctl/info`);
        expect(info.status).toBe(200);

        const ours = (await emu.waitForDeliveries()).filter((d) => d.event_id === eventId && !before.has(d.id));
        expect(ours).toHaveLength(count);
        for (const delivery of ours) {
          expect(delivery.attempt_log).toHaveLength(1);
          const [attempt] = delivery.attempt_log;
          expect({ status: attempt!.status, error: attempt!.error }).toEqual({
            status: c.status,
            error: c.error ? expect.stringMatching(c.error) : null,
          });
          if (c.retried === false) expect(delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null });
          else expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: RETRY_AT });
        }
        // A failed attempt closed its socket: the receiver holds none of them (an answered one may stay kept alive).
        if (c.retried !== false && c.status === null)
          await hostile.changed.until('serve to close every failed connection', () => hostile.open() === 0);
      } finally {
        await hostile.close();
      }
    });
  }

  it('after 200+ hostile deliveries, serve holds no connection, none is in use and no request waits for one', async () => {
    expect(sent).toBeGreaterThanOrEqual(200);
    expect(senders.length).toBeGreaterThanOrEqual(2);
    expect(redirectTarget.hits).toBe(0);
    // The receivers are gone: kept-alive sockets to the ones that answered close with them.
    await pollUntil('the sender to hold no connection', () => {
      const open = openConnections();
      return open.active + open.idle + open.queued === 0;
    });
  });
});

describe('a hung receiver and the clock', () => {
  it('CHOICE-23: advancing the clock 45 h past a receiver that never answers plays all 17 attempts, each ended by its 300 ms timeout', async () => {
    const hung = await silent('http');
    await using fresh = await startEmulator({ clock: { start: START, frozen: true }, webhookAttemptTimeoutMs: TIMEOUT_MS });
    try {
      await fresh.updateApp({ webhook_url: hung.url });
      await fresh.simulateScan({ user: 'member_1' });
      await fresh.waitForDeliveries();
      await fresh.clock.advance('45h');
      const [delivery] = await fresh.deliveries();
      expect(delivery).toMatchObject({ status: 'failed', attempts: 17 });
      expect(delivery!.attempt_log.every((a) => a.error === 'timed out after 300 ms waiting for the answer')).toBe(true);
    } finally {
      await hung.close();
    }
  });
});
