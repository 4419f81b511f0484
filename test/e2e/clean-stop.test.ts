import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { parseAnswer, postHead, rawExchange, type RawExchange } from '../helpers/raw-http.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const MINT = (n: number) => JSON.stringify({ host_user_ref: `member_stop_${n}` });

/**
 * A mint whose head and half its body are on the wire, and which serve has taken in: its
 * `100 Continue` (the answer to `Expect: 100-continue`) says the request reached the emulator.
 */
async function mintInFlight(serve: ServeProcess, n: number): Promise<{ exchange: RawExchange; rest: string }> {
  const body = MINT(n);
  const half = Math.floor(body.length / 2);
  const head = postHead(serve.baseUrl, '/v1/sessions', Buffer.byteLength(body), {
    Authorization: `Bearer ${DEMO.testSecret}`,
    Expect: '100-continue',
  });
  const exchange = await rawExchange(serve.baseUrl, head);
  await exchange.received('100 Continue\r\n\r\n');
  exchange.write(body.slice(0, half));
  return { exchange, rest: body.slice(half) };
}

/** An open delivery stream, past its ready event. */
async function openStream(serve: ServeProcess): Promise<RawExchange> {
  const { host } = new URL(serve.baseUrl);
  const stream = await rawExchange(serve.baseUrl, `GET /_scanctl/webhooks/stream?app_id=${DEMO.appId} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  await stream.received('event: ready');
  return stream;
}

function exited(serve: ServeProcess): Promise<number | null> {
  return new Promise((resolve) =>
    serve.child.exitCode !== null ? resolve(serve.child.exitCode) : serve.child.once('exit', (code) => resolve(code)),
  );
}

/** What serve wrote to stderr after its ready line holds no stack trace and no internal error. */
function expectQuietLog(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/internal error|not open|Error:/);
}

describe('CHOICE-35: a clean stop (built CLI, SIGTERM with requests in flight)', () => {
  it('CHOICE-35: requests in flight at SIGTERM are answered (Connection: close), streams get a last end event, exit 0 with no stack trace', async () => {
    const serve = await startServe();
    cleanups.push(() => serve.kill());
    const stream = await openStream(serve);
    const mints = await Promise.all([1, 2, 3].map((n) => mintInFlight(serve, n)));

    serve.child.kill('SIGTERM');
    // The stream's last event says why it ends: serve has started stopping.
    const streamText = await stream.answer;
    expect(streamText).toMatch(/event: close\ndata: \{"object":"stream.closed","reason":"server_stopping"/);
    // The mints were in flight before the stop: they finish and are answered, then the connection closes.
    for (const { exchange, rest } of mints) exchange.write(rest);
    const answers = (await Promise.all(mints.map(({ exchange }) => exchange.answer))).map(parseAnswer);
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(201);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body).session_token).toMatch(/^vst_/);
    }
    expect(await exited(serve)).toBe(0);
    expectQuietLog(serve.stderr());
  });

  it('CHOICE-35: a request still unanswered when the grace ends is refused 503 service_stopping with Connection: close, the error body, and exit 0', async () => {
    const serve = await startServe([], { env: { SCANCTL_STOP_GRACE_MS: '300' } });
    cleanups.push(() => serve.kill());
    const { exchange } = await mintInFlight(serve, 9);
    serve.child.kill('SIGTERM');
    // The body never comes: the grace ends.
    const answer = parseAnswer(await exchange.answer);
    expect(answer.status).toBe(503);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'api_error', code: 'service_stopping', message: expect.any(String) } });
    expect(await exited(serve)).toBe(0);
    expectQuietLog(serve.stderr());
  });
});
