import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../../src/client/http.js';
import { DeviceClient } from '../../src/sdk/client.js';
import { sha256Hex } from '../../src/util/crypto.js';
import { runCli, startServe } from '../helpers/cli.js';
import { DEMO } from '../helpers/emulator.js';
import { control } from '../helpers/robust.js';
import { leaks } from '../helpers/secrets.js';
import { tempDir } from '../helpers/temp.js';
import { followDeliveries } from '../helpers/wait.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The device side and the webhooks, at rest and in output: session tokens used on the device
 * routes, challenges, the model key, the whsec_ secret that signs deliveries (attempt records
 * keep the request headers: the Service-Signature may be stored, the secret may not), after a
 * kill -9 that leaves the WAL as it was. Idempotency keys are not secrets (see the README, "Robustness: secrets"):
 * they are stored as sent, and the search below finds them, which also proves it can find things.
 */

const TRIAL = { appId: 'app_trial', secret: 'sk_test_trialSecretKey0000000000001', bundleId: 'com.example.trial', teamId: 'Z9Y8X7W6V5' };

/** Anything shaped like a live secret: no need to know it to find it. */
const SECRET_SHAPES =
  /\b(?:vst_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=_-]{16,}|sk_(?:live|test)_[A-Za-z0-9]{16,}|chl_[A-Za-z0-9]{16,}|psess_[A-Za-z0-9]{16,})/g;

function shapes(haystack: Buffer | string): string[] {
  return [...(typeof haystack === 'string' ? haystack : haystack.toString('latin1')).matchAll(SECRET_SHAPES)].map((m) => m[0]);
}

describe('robustness: secrets on the device side and in webhooks', () => {
  it('SES-4, APP-2, WH-4, DEV-4, AUTH-13: tokens on device routes, challenges, the model key and the whsec_ secret are in neither the db, the WAL, serve output, the request log nor CLI errors', async () => {
    const dir = tempDir('scanctl-robust-secrets-');
    const serve = await startServe([], { dir });
    let serveOut = '';
    serve.child.stdout!.on('data', (chunk) => (serveOut += chunk));
    const base = serve.baseUrl;
    const secrets = new Set<string>([DEMO.webhookSecret, DEMO.liveSecret, TRIAL.secret]);
    const outputs: string[] = [];
    const cli = async (args: string[], expectCode = 0) => {
      const result = await runCli([...args, '--base-url', base]);
      expect(result.code, `scanctl ${args.join(' ')}: ${result.stderr}`).toBe(expectCode);
      return result;
    };
    const receiver = await startReceiver('whsec_placeholder');
    try {
      // APP-2: a fresh signing secret, shown once by the command that set the first webhook_url.
      const issued = JSON.parse(
        (await cli(['app', 'update', '--app', TRIAL.appId, '--webhook-url', 'http://127.0.0.1:9/x', '--json'])).stdout,
      );
      const whsec = issued.webhook_secret as string;
      expect(whsec).toMatch(/^whsec_/);
      // Negative control: both searches do find a secret where it belongs (the answer that issued it).
      expect(shapes(JSON.stringify(issued))).toEqual([whsec]);
      expect(leaks(JSON.stringify(issued), [whsec])).toEqual([whsec, whsec.slice('whsec_'.length)]);
      secrets.add(whsec);
      const receiverWithSecret = await startReceiver(whsec);
      await receiver.close();
      const shown = await cli(['app', 'update', '--app', TRIAL.appId, '--webhook-url', receiverWithSecret.url, '--results-delivery', 'on']);
      const follower = await followDeliveries(base, TRIAL.appId);
      outputs.push(shown.stdout, shown.stderr);
      expect(shown.stdout).not.toContain(whsec); // not re-shown once issued

      // The device side with tokens we know: mint through the CLI (stdout is the one place a token belongs).
      const tokens: string[] = [];
      for (let i = 0; i < 3; i++) {
        const minted = await cli(['session', 'mint', '--app', TRIAL.appId, '--key', TRIAL.secret, '--user', `sec_${i}`, '--json']);
        outputs.push(minted.stderr);
        tokens.push(JSON.parse(minted.stdout).session_token);
      }
      tokens.forEach((t) => secrets.add(t));
      const idempotencyKeys: string[] = [];
      let modelKey = '';
      const installationId = 'ins_robustSecrets01';
      for (const [i, token] of tokens.entries()) {
        const device = new DeviceClient(base, token);
        const { challenge } = await device.challenge();
        secrets.add(challenge);
        if (i === 0) {
          await device.enroll({
            installation_id: installationId,
            app_version: '1.0.0',
            attestation: { format: 'stub', challenge, bundle_id: TRIAL.bundleId, team_id: TRIAL.teamId },
          });
        }
        const model = (await device.models()).data.find((m) => m.current)!;
        const key = await device.modelKey({ installation_id: installationId, model_version: model.model_version, app_version: '1.0.0' });
        modelKey = key.key;
        await device.meshFit({ installation_id: installationId, model_version: model.model_version });
        const scanId = `scn_robustSecrets${i}`;
        for (const status of ['started', 'completed'] as const) {
          const idem = `idem_robust_${i}_${status}`;
          idempotencyKeys.push(idem);
          const body = {
            installation_id: installationId,
            scan_id: scanId,
            status,
            occurred_at: new Date(Date.parse(String(serve.ready.clock)) + 1000 * i).toISOString(),
            model_version: model.model_version,
          };
          expect((await device.scanEvent(body, idem)).status).toBeLessThan(300);
          expect((await device.scanEvent(body, idem)).replayed).toBe(true);
        }
        await device.uploadResult(scanId, {
          installation_id: installationId,
          result: { modelVersion: model.model_version, measurements: { bodyFatPercent: 20, bmi: 22, girths: { waistCm: 80, hipCm: 95 } } },
        });
      }
      // DEV-4 decision: the model key is treated as a secret in output; it is derived, never stored.
      expect(modelKey.length).toBeGreaterThanOrEqual(32);
      secrets.add(modelKey);

      // More device traffic whose tokens nobody sees: only the shape search can catch those.
      const simulated = await cli(['scan', 'simulate', '--app', TRIAL.appId, '--user', 'sec_sim', '--count', '4', '--json']);
      outputs.push(simulated.stdout, simulated.stderr);

      // Wrong credentials on the device routes: the error bodies name them by display form only (AUTH-13).
      for (const wrong of [DEMO.testSecret, DEMO.liveSecret, whsec, `vst_${'Z'.repeat(32)}`, `${tokens[0]}x`]) {
        const error = await new DeviceClient(base, wrong).challenge().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ApiCallError);
        const text = JSON.stringify((error as ApiCallError).error);
        expect(leaks(text, [wrong, ...secrets])).toEqual([]);
      }
      // CLI errors of the device side: a wrong, revoked or publishable key for scan simulate.
      for (const key of ['sk_test_wrongKeyButWellFormed00000001', DEMO.testPublishable, `${TRIAL.secret}x`]) {
        const failed = await cli(['scan', 'simulate', '--app', TRIAL.appId, '--user', 'sec_bad', '--key', key], 3);
        expect(failed.stderr).toMatch(/^scanctl: /);
        outputs.push(failed.stdout, failed.stderr);
        expect(leaks(failed.stdout + failed.stderr, [key])).toEqual([]);
      }
      // webhook verify with the secret and a wrong signature: the message does not echo the secret.
      const verify = await runCli(['webhook', 'verify', '--secret', whsec, '--signature', 'ab'.repeat(32)], { input: '{"x":1}' });
      expect(verify.code).toBe(6);
      outputs.push(verify.stdout, verify.stderr);

      // Every delivery of app_trial signed with the fresh secret and acknowledged.
      const deliveries = await follower.changed.until('app_trial deliveries acknowledged', async () => {
        const list = (await control(base, `/webhooks/deliveries?app_id=${TRIAL.appId}&limit=1000`)).data as Array<Record<string, any>>;
        return list.length >= 2 * (tokens.length + 4) && list.every((d) => d.status === 'succeeded') ? list : null;
      });
      follower.close();
      // The CLI lists the same deliveries.
      expect(JSON.parse((await cli(['webhook', 'deliveries', '--app', TRIAL.appId, '--json'])).stdout).data).toHaveLength(
        deliveries.length,
      );
      expect(receiverWithSecret.received.length).toBeGreaterThanOrEqual(deliveries.length);
      expect(receiverWithSecret.received.every((d) => d.signatureValid)).toBe(true);
      const signatures = receiverWithSecret.received.map((d) => String(d.headers['service-signature']));
      const detail = await cli(['webhook', 'delivery', deliveries[0]!.id, '--json']);
      const detailPlain = await cli(['webhook', 'delivery', deliveries[0]!.id]);
      // The stored request headers show the signature (fine: HMAC output reveals nothing of the key).
      expect(
        JSON.parse(detail.stdout).request.headers['Service-Signature'] ?? JSON.parse(detail.stdout).request.headers['service-signature'],
      ).toMatch(/^[0-9a-f]{64}$/);
      outputs.push(detail.stdout, detailPlain.stdout, (await cli(['webhook', 'deliveries', '--app', TRIAL.appId])).stdout);

      // Tokens expire: the expiry message names the token by display form (SES-5).
      await cli(['clock', 'advance', '20m']);
      const expired = await new DeviceClient(base, tokens[0]!).challenge().catch((e: ApiCallError) => e);
      expect((expired as ApiCallError).error?.code).toBe('session_token_expired');
      expect(leaks(JSON.stringify((expired as ApiCallError).error), secrets)).toEqual([]);

      // The request log, JSON and plain, and the state export without --include-secrets.
      for (const args of [
        ['logs', 'tail', '--no-follow', '--all', '-n', '1000', '--json'],
        ['logs', 'tail', '--no-follow', '--all', '-n', '1000'],
        ['state', 'export', '-'],
      ]) {
        const out = await cli(args);
        outputs.push(out.stdout, out.stderr);
      }
      const logText = outputs.join('\n');
      expect(logText).toMatch(/vst_\.\.\.[A-Za-z0-9]{4}/); // the log does name the token, by display form
      expect(leaks(logText, secrets)).toEqual([]);
      expect(shapes(logText)).toEqual([]);

      // kill -9: the WAL stays as it was, unmerged.
      await serve.kill();
      const db = readFileSync(serve.db);
      const wal = existsSync(`${serve.db}-wal`) ? readFileSync(`${serve.db}-wal`) : Buffer.alloc(0);
      expect(wal.length).toBeGreaterThan(0);
      const stored = Buffer.concat([db, wal]);
      // Positive controls: what is stored is findable by the same search.
      expect(stored.includes(Buffer.from(sha256Hex(tokens[0]!)))).toBe(true);
      for (const idem of idempotencyKeys) expect(stored.includes(Buffer.from(idem)), idem).toBe(true);
      expect(signatures.some((s) => stored.includes(Buffer.from(s)))).toBe(true);
      expect(leaks(db, secrets)).toEqual([]);
      expect(leaks(wal, secrets)).toEqual([]);
      expect(shapes(stored)).toEqual([]);

      // Serve's own output after its ready line: nothing secret, nothing secret-shaped.
      const serveOutput = `${serveOut}\n${serve.stderr()}`;
      expect(leaks(serveOutput, secrets)).toEqual([]);
      expect(shapes(serveOutput)).toEqual([]);
      await receiverWithSecret.close();
    } finally {
      await serve.stop();
      await receiver.close().catch(() => undefined);
    }
  }, 60_000);
});
