import { describe, expect, it } from 'vitest';
import { DEMO, expectErrorBody, testEmulator } from '../../../helpers/emulator.js';
import { enroll, event, mint, MODEL, uid } from '../../../helpers/device.js';

const DEVICE_CALLS = [
  ['POST', '/v1/device/challenge'],
  ['GET', '/v1/models'],
  ['GET', `/v1/models/${MODEL}`],
  ['POST', '/v1/model-key'],
  ['POST', '/v1/mesh-fits'],
  ['POST', '/v1/scan-events'],
  ['PUT', '/v1/scans/scn_1/result'],
  ['POST', '/v1/device/enrollments'],
] as const;

describe('device routes: session tokens only', () => {
  it('AUTH-13: a secret or publishable key on any device route is 401 secret_key_not_accepted', async () => {
    const emu = testEmulator();
    for (const [method, path] of DEVICE_CALLS) {
      for (const key of [DEMO.testSecret, DEMO.liveSecret, DEMO.testPublishable]) {
        const res = await emu.call(method, path, { key, ...(method === 'GET' ? {} : { json: {} }) });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'secret_key_not_accepted' });
        expect(res.body.error.message).not.toContain(key);
      }
    }
  });

  it('AUTH-13: a missing or unknown token is 401 session_token_invalid', async () => {
    const emu = testEmulator();
    for (const [method, path] of DEVICE_CALLS) {
      const json = method === 'GET' ? {} : { json: {} };
      const none = await emu.call(method, path, json);
      expect(none.status).toBe(401);
      expect(expectErrorBody(none.body).code).toBe('session_token_invalid');
      const unknown = await emu.call(method, path, { key: 'vst_00000000000000000000000000000000', ...json });
      expect(expectErrorBody(unknown.body).code).toBe('session_token_invalid');
    }
  });

  it('SES-5: device routes honour the 15-minute lifetime on the emulator clock (401 session_token_expired)', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    await emu.advance(15 * 60_000 - 1);
    expect((await emu.call('GET', '/v1/models', { key: token })).status).toBe(200);
    await emu.advance(1);
    const res = await emu.call('GET', '/v1/models', { key: token });
    expect(res.status).toBe(401);
    expect(expectErrorBody(res.body).code).toBe('session_token_expired');
  });

  it('AUTH-14: a token minted before its key is revoked keeps working until it expires', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const revoke = await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/keys/revoke`, { json: { env: 'test' } });
    expect(revoke.status).toBe(200);
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).body.error.code).toBe(
      'key_revoked',
    );
    await emu.advance(10 * 60_000);
    const mk = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(mk.status).toBe(200);
    const scan = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' });
    expect(scan.status).toBe(201);
    await emu.advance(5 * 60_000);
    const late = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(expectErrorBody(late.body).code).toBe('session_token_expired');
  });

  it('SES-6: one token authorizes one scan session; a second scan_id gets 403 session_token_used', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const first = uid('scn');
    expect((await event(emu, token, { installation_id: installation, scan_id: first, status: 'started' })).status).toBe(201);
    // The same scan session continues with the same token.
    expect((await event(emu, token, { installation_id: installation, scan_id: first, status: 'completed' })).status).toBe(200);
    const second = await event(emu, token, { installation_id: installation, scan_id: uid('scn'), status: 'completed' });
    expect(second.status).toBe(403);
    expect(expectErrorBody(second.body)).toMatchObject({ type: 'permission_error', code: 'session_token_used' });
    const scans = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`);
    expect(scans.body.data).toHaveLength(1);
  });

  it('SES-7: a token without scan.create gets 403 insufficient_scope and the scan is not recorded at all', async () => {
    const emu = testEmulator();
    const token = await mint(emu, 'member_1', { scopes: [] });
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    const res = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
    expect(res.status).toBe(403);
    expect(expectErrorBody(res.body)).toMatchObject({ type: 'permission_error', code: 'insufficient_scope' });
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data).toEqual([]);
    // Not bound either: the token can still do everything else.
    const fit = await emu.call('POST', '/v1/mesh-fits', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(fit.status).toBe(201);
  });

  it('SES-8: only scan.create gates anything: a scope-less token enrolls, lists and downloads models, gets the model key and a mesh fit', async () => {
    const emu = testEmulator();
    const token = await mint(emu, 'member_1', { scopes: [] });
    const installation = await enroll(emu, token);
    expect((await emu.call('GET', '/v1/models', { key: token })).status).toBe(200);
    expect((await emu.call('GET', `/v1/models/${MODEL}`, { key: token })).status).toBe(200);
    const mk = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(mk.status).toBe(200);
    expect(mk.body).toMatchObject({ object: 'model_key', model_version: MODEL });
    const fit = await emu.call('POST', '/v1/mesh-fits', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(fit.status).toBe(201);
  });
});
