import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Condition } from './wait.js';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  method: string;
  raw: Buffer;
  /** The receiver's own check of Service-Signature over the raw bytes, before parsing. */
  signatureValid: boolean;
  body: any;
}

/** What the receiver does with the n-th request (1-based): answer a status, reset the connection, or hang. */
export type Action = number | 'reset' | 'hang' | { status: number; headers?: Record<string, string>; body?: string };
export type Behaviour = (n: number, delivery: ReceivedDelivery) => Action | Promise<Action>;

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  behaviour: Behaviour;
  close(): Promise<void>;
  /** Notified on every request, once it is in `received`. */
  arrived: Condition;
  /** Resolves once `count` requests arrived (bounded by a real-time timeout). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
}

/** A real HTTP receiver on a loopback port that checks each delivery's signature itself. */
export async function startReceiver(secret: string, behaviour: Behaviour = () => 200, port = 0): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const sockets = new Set<Socket>();
  const arrived = new Condition();
  const receiver = { received, behaviour, arrived } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void answer());
    const answer = async () => {
      const raw = Buffer.concat(chunks);
      const presented = String(req.headers['service-signature'] ?? '');
      const expected = createHmac('sha256', secret).update(raw).digest('hex');
      const signatureValid = presented.length === expected.length && timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
      let body: unknown = null;
      if (signatureValid) body = JSON.parse(raw.toString('utf8'));
      const delivery: ReceivedDelivery = { headers: req.headers, method: req.method ?? '', raw, signatureValid, body };
      received.push(delivery);
      arrived.notify();
      const action = await receiver.behaviour(received.length, delivery);
      if (action === 'reset') return req.socket.destroy();
      if (action === 'hang') return;
      if (typeof action === 'number') return res.writeHead(action, { 'content-type': 'text/plain' }).end(`status ${action}`);
      res.writeHead(action.status, action.headers ?? {}).end(action.body ?? '');
    };
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  receiver.port = actual;
  receiver.url = `http://127.0.0.1:${actual}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  receiver.waitFor = (count, timeoutMs = 10_000) =>
    arrived.until(
      () => `${count} deliveries (got ${received.length})`,
      () => received.length >= count && received,
      timeoutMs,
    );
  return receiver;
}
