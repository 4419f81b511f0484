import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../../src/emulator/create-emulator.js';
import { applyFixtures } from '../../../src/emulator/domain/apply-fixtures.js';
import { readFixtures } from '../../../src/emulator/fixture-file.js';
import { loadSecretBox, openDatabase } from '../../../src/store/db.js';
import { sha256Hex } from '../../../src/util/crypto.js';
import { DEMO, FIXTURES_FILE } from '../../helpers/emulator.js';
import { leaks } from '../../helpers/secrets.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * No session token, secret key, portal cookie or signing secret in plain text at rest (the
 * SQLite file and its WAL), except where the spec shows a secret once: the answer that issued it.
 * What the processes print (serve's log, the CLI's errors) is test/e2e/secrets-in-output.test.ts.
 */

type Json = any;
async function request(
  app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  method: string,
  path: string,
  options: { key?: string; json?: unknown; cookie?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

describe('secrets at rest', () => {
  it('SES-4, AUTH-11, APP-2: no token, secret key, portal cookie or signing secret in the SQLite file or its WAL', async () => {
    const dir = tempDir('scanctl-secrets-');
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
    const login = await app.request('/_scanctl/portal/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: 'acct_trial' }),
    });
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
});
