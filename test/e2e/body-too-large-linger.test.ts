import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHOICES } from '../../src/contract/choices.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { expectErrorBody } from '../helpers/emulator.js';
import { parseAnswer } from '../helpers/raw-http.js';

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe();
});
afterAll(async () => {
  await serve?.kill();
});

/**
 * A POST of `size` bytes written whole (head and body, Connection: close) before a byte of the
 * answer is read, as Python's urllib does; the answer, or the socket error that came instead.
 */
function writeAllThenRead(size: number): Promise<string> {
  const { hostname, port } = new URL(serve.baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let failed: string | null = null;
    socket.on('error', (error: NodeJS.ErrnoException) => (failed ??= error.code ?? error.message));
    socket.on('close', () => resolve(failed ?? Buffer.concat(chunks).toString('utf8')));
    socket.write(
      `POST /v1/sessions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer sk_test_any\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(Buffer.alloc(size, 0x61), () => socket.on('data', (chunk: Buffer) => chunks.push(chunk)));
  });
}

describe('CHOICE-57: a refused body still gets its answer (lingering close)', () => {
  it('CHOICE-57: CHOICE-3: a client that writes a 3 MiB body whole before reading gets 413 body_too_large, 10 times out of 10', async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await writeAllThenRead(3 * 1024 * 1024);
      expect(answer, `attempt ${i + 1}`).toMatch(/^HTTP\/1\.1 413 /);
      const { headers, body } = parseAnswer(answer);
      expect(headers.connection).toBe('close');
      expect(expectErrorBody(JSON.parse(body)).code).toBe('body_too_large');
    }
    expect(CHOICES.lingerOnUnreadBodyBytes).toBeGreaterThan(3 * 1024 * 1024);
  });
});
