import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { freePort } from '../helpers/net.js';

/**
 * The document as a third-party tool reads it: Stoplight Prism's validating proxy, in front of a
 * real `scanctl serve`, with the document that serve itself serves. What Prism flags is what a
 * client generated from, or checked against, the document would be told.
 */
const require = createRequire(import.meta.url);
const PRISM = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

let serve: ServeProcess;
let prism: ChildProcess;
let proxyUrl: string;

/** Starts `prism proxy DOCUMENT UPSTREAM --errors` on 127.0.0.1 and waits for its listening line. */
async function startPrism(document: string, upstream: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start: ${output}`)), 90_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}: ${output}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  serve = await startServe([], { db: ':memory:' });
  const served = await fetch(`${serve.baseUrl}/_scanctl/openapi.json`);
  expect(served.status).toBe(200);
  const document = join(serve.dir, 'openapi.json');
  writeFileSync(document, await served.text());
  ({ child: prism, url: proxyUrl } = await startPrism(document, serve.baseUrl));
}, 120_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  await serve?.stop();
});

const mint = (body: string) =>
  fetch(`${proxyUrl}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO.testSecret}`, 'content-type': 'application/json' },
    body,
  });

describe("Prism's validating proxy with the served document", () => {
  it('SES-1: an invalid request body is flagged by Prism (422, naming the field) before it reaches the emulator', async () => {
    for (const [body, field] of [
      ['{"host_user_ref":123}', 'host_user_ref'],
      ['{"host_user_ref":"m","scopes":["scan.delete"]}', 'scopes.0'],
      ['{"host_user_ref":"m","extra":1}', ''],
    ] as const) {
      const flagged = await mint(body);
      expect(flagged.status, body).toBe(422);
      expect(flagged.headers.get('content-type')).toMatch(/problem\+json/);
      const problem = (await flagged.json()) as { validation: Array<{ location: string[]; message: string }> };
      expect(problem.validation.length, body).toBeGreaterThan(0);
      expect(problem.validation[0]!.location[0]).toBe('body');
      if (field) expect(problem.validation.map((v) => v.location.join('.'))).toContain(`body.${field}`);
    }
    // Nothing of the flagged requests reached the emulator: its request log has no mint.
    const log = (await (await fetch(`${serve.baseUrl}/_scanctl/logs?n=100`)).json()) as { data: Array<{ path: string }> };
    expect(log.data.filter((entry) => entry.path === '/v1/sessions')).toEqual([]);
  });

  it('SES-2: a valid request passes through Prism to the emulator: 201 with a vst_ token', async () => {
    const minted = await mint('{"host_user_ref":"through_prism"}');
    expect(minted.status).toBe(201);
    expect(((await minted.json()) as { session_token: string }).session_token).toMatch(/^vst_/);
  });

  it('CHOICE-53: a body sent to a route that declares none is flagged by Prism as well as refused by the emulator', async () => {
    const path = `/_scanctl/accounts/${DEMO.accountId}/suspend`;
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reason":"x"}' };
    expect((await fetch(`${proxyUrl}${path}`, init)).status).toBe(422);
    const direct = await fetch(`${serve.baseUrl}${path}`, init);
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe('body_not_allowed');
  });
});
