import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO, expectErrorBody, testEmulator } from '../../../helpers/emulator.js';
import { challenge, enroll, enrollRaw, event, mint, MODEL, uid } from '../../../helpers/device.js';

describe('device enrollment and attestation', () => {
  it('DEV-1: an installation enrolls once; an app update keeps the enrollment; a reinstall enrolls again', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const id = uid('ins');
    const first = await enrollRaw(emu, token, id, { app_version: '1.0.0' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'enrollment', installation_id: id, status: 'enrolled', reenrolled: false, enrollments: 1 });

    // App update: no new enrollment; the installation's next calls carry the new version and work.
    await emu.advance(3 * 24 * 3600_000);
    const later = await mint(emu);
    const mk = await emu.call('POST', '/v1/model-key', {
      key: later,
      json: { installation_id: id, model_version: MODEL, app_version: '1.1.0' },
    });
    expect(mk.status).toBe(200);
    let view = (await emu.call('GET', `/_scanctl/installations/${id}`)).body;
    expect(view).toMatchObject({ app_version: '1.1.0', enrollments: 1 });

    // Reinstall: the SDK enrolls again (a new attestation), same installation, counted.
    const again = await enrollRaw(emu, later, id, { app_version: '1.1.0' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ reenrolled: true, enrollments: 2, status: 'enrolled' });
    view = (await emu.call('GET', `/_scanctl/installations/${id}`)).body;
    expect(view.enrollments).toBe(2);
  });

  it('DEV-1: a scan before enrollment is refused with 403 installation_not_enrolled', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const res = await event(emu, token, { installation_id: 'ins_never', scan_id: uid('scn'), status: 'completed' });
    expect(res.status).toBe(403);
    expect(expectErrorBody(res.body)).toMatchObject({ code: 'installation_not_enrolled', param: 'installation_id' });
  });

  it('DEV-2: a differing bundle or team identifier is 403 attestation_invalid whose message names attestation, not the bundle', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    for (const ids of [{ bundle_id: 'com.example.other' }, { team_id: 'ZZZZZZZZZZ' }, { bundle_id: 'com.evil', team_id: 'B1B2C3D4E5' }]) {
      const id = uid('ins');
      const res = await enrollRaw(emu, token, id, ids);
      expect(res.status).toBe(403);
      const error = expectErrorBody(res.body);
      expect(error).toMatchObject({ type: 'permission_error', code: 'attestation_invalid' });
      expect(error.message.toLowerCase()).toContain('attestation');
      expect(error.message.toLowerCase()).not.toMatch(/bundle|team/);
      expect(error.param).toBeUndefined();
      expect((await emu.call('GET', `/_scanctl/installations/${id}`)).status).toBe(404);
    }
  });

  it('APP-5: the identifiers must match exactly: case, whitespace and prefixes all differ', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const near = [
      { bundle_id: DEMO.bundleId.toUpperCase() },
      { bundle_id: `${DEMO.bundleId} ` },
      { bundle_id: `${DEMO.bundleId}.extension` },
      { team_id: DEMO.teamId.toLowerCase() },
      { team_id: DEMO.teamId.slice(0, 9) },
      { team_id: ` ${DEMO.teamId}` },
    ];
    for (const ids of near) {
      const res = await enrollRaw(emu, token, uid('ins'), ids);
      expect(res.body.error?.code, JSON.stringify(ids)).toBe('attestation_invalid');
    }
    expect((await enrollRaw(emu, token, uid('ins'))).status).toBe(201);
  });

  it('a challenge is single-use, expires, and belongs to the app that asked for it (403 challenge_invalid)', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const chl = await challenge(emu, token);
    const body = (id: string) => ({
      installation_id: id,
      attestation: { format: 'stub', challenge: chl, bundle_id: DEMO.bundleId, team_id: DEMO.teamId },
    });
    expect((await emu.call('POST', '/v1/device/enrollments', { key: token, json: body(uid('ins')) })).status).toBe(201);
    const reuse = await emu.call('POST', '/v1/device/enrollments', { key: token, json: body(uid('ins')) });
    expect(expectErrorBody(reuse.body)).toMatchObject({ code: 'challenge_invalid', param: 'attestation.challenge' });

    const stale = await challenge(emu, token);
    await emu.advance(5 * 60_000);
    const fresh = await mint(emu);
    const late = await emu.call('POST', '/v1/device/enrollments', {
      key: fresh,
      json: {
        installation_id: uid('ins'),
        attestation: { format: 'stub', challenge: stale, bundle_id: DEMO.bundleId, team_id: DEMO.teamId },
      },
    });
    expect(late.body.error.code).toBe('challenge_invalid');

    const trialToken = await mint(emu, 'member_1', { key: 'sk_test_trialSecretKey0000000000001' });
    const foreign = await challenge(emu, fresh);
    const cross = await emu.call('POST', '/v1/device/enrollments', {
      key: trialToken,
      json: {
        installation_id: uid('ins'),
        attestation: { format: 'stub', challenge: foreign, bundle_id: 'com.example.trial', team_id: 'Z9Y8X7W6V5' },
      },
    });
    expect(cross.body.error.code).toBe('challenge_invalid');
  });

  it('DEV-3: a blocked installation: its next scan fails to start (model key and new scans refused), unblock lifts it', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const blocked = await emu.call('POST', `/_scanctl/installations/${installation}/block`);
    expect(blocked.body).toMatchObject({ status: 'blocked' });
    expect(blocked.body.blocked_at).toBe(new Date(emu.clock.now()).toISOString());

    const mk = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(mk.status).toBe(403);
    expect(expectErrorBody(mk.body).code).toBe('installation_blocked');
    const scanId = uid('scn');
    const scan = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'started' });
    expect(scan.status).toBe(403);
    expect(scan.body.error.code).toBe('installation_blocked');
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`)).body.data).toEqual([]);
    // A reinstall does not escape the block.
    const again = await enrollRaw(emu, token, installation);
    expect(again.body).toMatchObject({ status: 'blocked', reenrolled: true });

    await emu.call('POST', `/_scanctl/installations/${installation}/unblock`);
    const after = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
    expect(after.status).toBe(201);
  });

  it('DEV-3: a scan that had already started before the block may still finish', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const scanId = uid('scn');
    expect((await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'started' })).status).toBe(201);
    await emu.call('POST', `/_scanctl/installations/${installation}/block`);
    const done = await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body.scan.status).toBe('completed');
  });

  it('DEV-4: POST /v1/model-key needs a session token plus an enrolled installation of the app, and returns the model key', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const none = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: 'ins_nobody', model_version: MODEL } });
    expect(none.status).toBe(403);
    expect(none.body.error.code).toBe('installation_not_enrolled');
    const installation = await enroll(emu, token);
    // Another app's token cannot use this app's installation.
    const trial = await mint(emu, 'member_1', { key: 'sk_test_trialSecretKey0000000000001' });
    const foreign = await emu.call('POST', '/v1/model-key', { key: trial, json: { installation_id: installation, model_version: MODEL } });
    expect(foreign.body.error.code).toBe('installation_not_enrolled');
    const ok = await emu.call('POST', '/v1/model-key', { key: token, json: { installation_id: installation, model_version: MODEL } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ object: 'model_key', model_version: MODEL });
    expect(ok.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const unknown = await emu.call('POST', '/v1/model-key', {
      key: token,
      json: { installation_id: installation, model_version: '1999.1' },
    });
    expect(unknown.status).toBe(404);
  });

  it('models: the manifest gives size and sha256, and the download matches them byte for byte', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const manifest = await emu.call('GET', '/v1/models', { key: token });
    expect(manifest.body.data[0]).toMatchObject({ object: 'model', model_version: MODEL, current: true });
    for (const model of manifest.body.data) {
      const res = await emu.app.request(model.url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(model.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(model.sha256);
    }
    expect((await emu.call('GET', '/v1/models/0.0.0', { key: token })).status).toBe(404);
  });
});
