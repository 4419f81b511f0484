import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../src/webhooks/sender.js';

// A receiver behind TLS, with a self-signed certificate made for this test only (CN=localhost,
// SAN 127.0.0.1; its key is no secret): the sender's https path, certificate checks on.
const FIXTURES = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const CERT = `${FIXTURES}receiver-cert.pem`;
const SENDER = pathToFileURL(fileURLToPath(new URL('../../dist/webhooks/sender.js', import.meta.url))).href;

let server: https.Server;
let url: string;
const bodies: string[] = [];
let handshakes = 0;

beforeAll(async () => {
  server = https.createServer({ key: readFileSync(`${FIXTURES}receiver-key.pem`), cert: readFileSync(CERT) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(`${req.method} ${req.url} ${Buffer.concat(chunks).toString('utf8')}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok over tls');
    });
  });
  server.on('secureConnection', () => (handshakes += 1));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?x=1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

describe('deliveries to an https receiver', () => {
  it('a certificate no authority vouches for is refused: no answer, and an error that names the check', async () => {
    const before = bodies.length;
    const sender = new WebhookSender();
    const outcome = await sender.send({
      url,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"n":1}'),
      timeoutMs: 5_000,
    });
    await sender.close();
    expect(outcome).toMatchObject({ status: null, excerpt: null });
    expect(outcome.error).toMatch(/self-signed certificate/);
    expect(bodies.length).toBe(before);
  });

  it('with the certificate trusted (NODE_EXTRA_CA_CERTS), the delivery goes over TLS and the answer is read, twice over one connection', async () => {
    const script = `
      const { WebhookSender } = await import(${JSON.stringify(SENDER)});
      const sender = new WebhookSender();
      const one = () => sender.send({ url: ${JSON.stringify(url)}, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"n":2}'), timeoutMs: 5000 });
      const first = await one();
      // undici's pool takes its connection back a turn after the answer.
      await new Promise((turn) => setImmediate(turn));
      console.log(JSON.stringify([first, await one()]));
      await sender.close();`;
    const handshakesBefore = handshakes;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: CERT }, timeout: 20_000 },
        (error, stdout) => (error ? reject(new Error(error.message, { cause: error })) : resolve(stdout)),
      ),
    );
    const outcomes = JSON.parse(out) as Array<{ status: number; error: string | null; excerpt: string }>;
    expect(outcomes.map(({ status, error, excerpt }) => ({ status, error, excerpt }))).toEqual([
      { status: 200, error: null, excerpt: 'ok over tls' },
      { status: 200, error: null, excerpt: 'ok over tls' },
    ]);
    expect(bodies.slice(-2)).toEqual(['POST /hooks?x=1 {"n":2}', 'POST /hooks?x=1 {"n":2}']);
    expect(handshakes - handshakesBefore).toBe(1);
  });
});
