import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/create-emulator.js';
import { applyFixtures } from '../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../src/emulator/fixture-file.js';
import { loadSecretBox, openDatabase } from '../../src/store/db.js';
import { sha256Hex } from '../../src/util/crypto.js';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO, FIXTURES_FILE } from '../helpers/emulator.js';

/**
 * No session token, secret key, portal cookie or signing secret in plain text at rest (the
 * SQLite file and its WAL) or in output (serve's log, error messages, the request log), except
 * where the spec shows a secret once: the answer that issued it. Serve's ready banner prints the
 * fixture file's test keys by design (they are in the fixture file anyway).
 */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scanctl-secrets-'));
  dirs.push(dir);
  return dir;
}

/** Every secret, plus its random part alone (so a stored "vst_" + body split in two would still be caught). */
function needles(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    out.add(secret);
    const body = secret.replace(/^(sk|pk|vst|whsec|psess)_(test_|live_)?/, '');
    if (body.length >= 16) out.add(body);
  }
  return [...out];
}

function leaks(haystack: Buffer | string, secrets: Iterable<string>): string[] {
  const bytes = typeof haystack === 'string' ? Buffer.from(haystack) : haystack;
  return needles(secrets).filter((needle) => bytes.includes(Buffer.from(needle)) || bytes.includes(Buffer.from(needle, 'utf16le')));
}

type Json = any;
async function request(app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> }, method: string, path: string, options: { key?: string; json?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

describe('secrets at rest and in output', () => {
  it('SES-4, AUTH-11, APP-2: no token, secret key, portal cookie or signing secret in the SQLite file or its WAL', async () => {
    const dir = tempDir();
    const path = join(dir, 'emulator.db');
    const db = openDatabase(path, { exclusive: true });
    const emu = createEmulator({ db, box: loadSecretBox(path), config: { rateLimitPerSecond: 0 } });
    applyFixtures(emu.store, emu.ids, emu.box, emu.clock.now(), readFixtures(FIXTURES_FILE));
    const app = emu.app;
    const secrets = new Set<string>([DEMO.testSecret, DEMO.liveSecret, DEMO.webhookSecret, 'sk_test_trialSecretKey0000000000001']);
    const tokens: string[] = [];

    for (let i = 0; i < 25; i++) {
      const minted = await request(app, 'POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: `member_${i}` } });
      expect(minted.status).toBe(201);
      tokens.push(minted.body.session_token);
    }
    // Rotation and a fresh live pair: each secret is in the answer that issued it, once (AUTH-11).
    const rotated = await request(app, 'POST', '/_scanctl/apps/app_demo/keys/rotate', { json: { env: 'test' } });
    expect(rotated.status).toBe(201);
    const rotatedSecret = rotated.body.data[0].secret as string;
    expect(rotatedSecret).toMatch(/^sk_test_/);
    expect((await request(app, 'POST', '/_scanctl/apps/app_demo/keys/revoke', { json: { env: 'live' } })).status).toBe(200);
    const issued = await request(app, 'POST', '/_scanctl/apps/app_demo/keys', { json: { env: 'live' } });
    expect(issued.status).toBe(201);
    const issuedSecret = issued.body.data.find((k: Json) => k.kind === 'secret').secret as string;
    expect(issuedSecret).toMatch(/^sk_live_/);
    secrets.add(rotatedSecret).add(issuedSecret);
    for (let i = 0; i < 5; i++) {
      const minted = await request(app, 'POST', '/v1/sessions', { key: rotatedSecret, json: { host_user_ref: `member_r${i}` } });
      tokens.push(minted.body.session_token);
    }
    // AUTH-11: afterwards only the non-secret form is shown.
    const listed = await request(app, 'GET', '/_scanctl/apps/app_demo/keys');
    expect(JSON.stringify(listed.body)).not.toContain(rotatedSecret);
    expect(JSON.stringify(listed.body)).not.toContain(issuedSecret);

    // The portal cookie and a signing secret issued on PATCH (APP-2).
    const login = await app.request('/_scanctl/portal/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account_id: 'acct_trial' }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    secrets.add(cookie.split('=')[1]!);
    const patched = await request(app, 'PATCH', '/v1/apps/app_trial', { cookie, json: { webhook_url: 'http://127.0.0.1:9/hooks' } });
    expect(patched.status).toBe(200);
    const whsec = patched.body.webhook_secret as string;
    expect(whsec).toMatch(/^whsec_/);
    secrets.add(whsec);
    expect(JSON.stringify((await request(app, 'GET', '/_scanctl/apps/app_trial')).body)).not.toContain(whsec);
    for (const token of tokens) secrets.add(token);
    expect(tokens.every((t) => /^vst_/.test(t))).toBe(true);

    // While the server would be running: the WAL holds the recent pages.
    const wal = `${path}-wal`;
    expect(existsSync(wal)).toBe(true);
    const walBytes = readFileSync(wal);
    const dbBytesOpen = readFileSync(path);
    // Positive control: what is stored (a token's hash) is findable by this very search.
    const stored = Buffer.concat([walBytes, dbBytesOpen]);
    expect(stored.includes(Buffer.from(sha256Hex(tokens[0]!)))).toBe(true);
    expect(leaks(walBytes, secrets)).toEqual([]);
    expect(leaks(dbBytesOpen, secrets)).toEqual([]);

    // After a clean stop (checkpointed into the main file).
    db.close();
    const dbBytes = readFileSync(path);
    expect(dbBytes.includes(Buffer.from(sha256Hex(tokens.at(-1)!)))).toBe(true);
    expect(leaks(dbBytes, secrets)).toEqual([]);
    if (existsSync(wal)) expect(leaks(readFileSync(wal), secrets)).toEqual([]);
  });

  it('SES-4, AUTH-11: serve logs, the request log and CLI error messages never print a full secret', async () => {
    const serve = await startServe([], { dir: tempDir() });
    try {
      const base = serve.baseUrl;
      const secrets = new Set<string>();
      const ctl = async (method: string, path: string, json?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: json === undefined ? {} : { 'content-type': 'application/json' },
          body: json === undefined ? undefined : JSON.stringify(json),
        });
        return { status: res.status, body: (await res.json()) as Json };
      };
      const rotated = await ctl('POST', '/_scanctl/apps/app_demo/keys/rotate', { env: 'test' });
      const newKey = rotated.body.data[0].secret as string;
      secrets.add(newKey);

      // Mints through the CLI: the token goes to stdout (that is the point), nowhere else.
      const outputs: string[] = [];
      const minted = await runCli(['session', 'mint', '--user', 'member_1', '--json', '--base-url', base, '--key', newKey]);
      expect(minted.code).toBe(0);
      const token = JSON.parse(minted.stdout).session_token as string;
      secrets.add(token);
      outputs.push(minted.stderr);

      // Wrong, revoked and publishable keys: the errors name the key by its non-secret form only.
      const wrongKey = 'sk_test_wrongKeyButWellFormed00000001';
      const revoked = await ctl('POST', '/_scanctl/apps/app_demo/keys/revoke', { env: 'live' });
      expect(revoked.status).toBe(200);
      for (const key of [wrongKey, DEMO.liveSecret, DEMO.testPublishable, `${newKey}x`]) {
        const failed = await runCli(['session', 'mint', '--user', 'member_1', '--base-url', base, '--key', key]);
        expect(failed.code).not.toBe(0);
        expect(failed.stderr).toMatch(/^scanctl: /);
        outputs.push(failed.stdout, failed.stderr);
        for (const text of [failed.stdout, failed.stderr]) expect(leaks(text, [key, newKey, token])).toEqual([]);
        const deleted = await runCli(['results', 'delete', '--user', 'member_1', '--base-url', base, '--key', key]);
        expect(deleted.code).not.toBe(0);
        outputs.push(deleted.stdout, deleted.stderr);
        for (const text of [deleted.stdout, deleted.stderr]) expect(leaks(text, [key, newKey, token])).toEqual([]);
      }
      // The API's own error bodies too.
      const raw = await fetch(`${base}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wrongKey}`, 'content-type': 'application/json' },
        body: '{"host_user_ref":"m"}',
      });
      const rawText = await raw.text();
      expect(raw.status).toBe(401);
      expect(leaks(rawText, [wrongKey])).toEqual([]);

      // The request log, names keys by display form only.
      const log = await fetch(`${base}/_scanctl/logs`);
      if (log.status === 200) expect(leaks(await log.text(), [...secrets, wrongKey, DEMO.liveSecret])).toEqual([]);

      // Serve's own output: the ready line shows the fixture test keys by design, nothing else.
      await serve.stop();
      const serveOutput = serve.stderr();
      expect(leaks(serveOutput, [...secrets, wrongKey, DEMO.liveSecret])).toEqual([]);
      expect(JSON.stringify(serve.ready)).not.toContain(newKey);
      expect(leaks(outputs.join('\n'), [...secrets, wrongKey])).toEqual([]);
    } finally {
      await serve.stop();
    }
  });
});
