import { describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { leaks } from '../helpers/secrets.js';
import { tempDir } from '../helpers/temp.js';

/**
 * No session token or secret key in what the processes print: serve's log, the request log and
 * the CLI's error messages (the built CLI, as child processes). Serve's ready banner prints the
 * fixture file's test keys by design (they are in the fixture file anyway).
 */
type Json = any;

describe('secrets in output', () => {
  it('SES-4, AUTH-11: serve logs, the request log and CLI error messages never print a full secret', async () => {
    const serve = await startServe([], { dir: tempDir('scanctl-secrets-') });
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
