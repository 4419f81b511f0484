import { describe, expect, it } from 'vitest';
import { HOUR } from '../../../../src/contract/choices.js';
import { DEMO, expectErrorBody, portalCookie, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

const patch = (emu: TestEmulator, appId: string, json: unknown, headers: Record<string, string> = {}) =>
  emu.call('PATCH', `/v1/apps/${appId}`, { json, headers });

describe('PATCH /v1/apps/{app_id} (the portal)', () => {
  it('APP-1: the portal cookie sets webhook_url and results_delivery_enabled', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    expect(cookie).toMatch(/^scanctl_portal=psess_/);
    const res = await patch(emu, DEMO.appId, { webhook_url: 'https://example.test/hooks', results_delivery_enabled: true }, { cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: DEMO.appId,
      object: 'app',
      webhook_url: 'https://example.test/hooks',
      results_delivery_enabled: true,
    });
    const stored = emu.store.apps.get(DEMO.appId)!;
    expect(stored.webhook_url).toBe('https://example.test/hooks');
    expect(stored.results_delivery_enabled).toBe(1);
    // Only one of them: the other is kept. null clears webhook_url.
    const off = await patch(emu, DEMO.appId, { results_delivery_enabled: false }, { cookie });
    expect(off.body).toMatchObject({ webhook_url: 'https://example.test/hooks', results_delivery_enabled: false });
    const cleared = await patch(emu, DEMO.appId, { webhook_url: null }, { cookie });
    expect(cleared.body).toMatchObject({ webhook_url: null, results_delivery_enabled: false });
  });

  it('APP-1: a bearer key is refused with 401 bearer_not_accepted, even beside a valid cookie', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    for (const headers of [
      { authorization: `Bearer ${DEMO.testSecret}` } as Record<string, string>,
      { authorization: `Bearer ${DEMO.liveSecret}`, cookie },
      { authorization: `Bearer ${DEMO.testPublishable}` },
    ]) {
      const res = await patch(emu, DEMO.appId, { results_delivery_enabled: true }, headers);
      expect(res.status).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'bearer_not_accepted' });
    }
    expect(emu.store.apps.get(DEMO.appId)!.results_delivery_enabled).toBe(0);
  });

  it('APP-1: no cookie, an unknown cookie or an expired portal login gets 401 portal_login_required', async () => {
    const emu = testEmulator();
    for (const headers of [{}, { cookie: 'scanctl_portal=psess_forged' }, { cookie: 'other=1' }] as Array<Record<string, string>>) {
      const res = await patch(emu, DEMO.appId, { results_delivery_enabled: true }, headers);
      expect(res.status).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'portal_login_required' });
    }
    const cookie = await portalCookie(emu);
    await emu.advance(12 * HOUR - 1);
    expect((await patch(emu, DEMO.appId, {}, { cookie })).status).toBe(200);
    await emu.advance(1);
    const expired = await patch(emu, DEMO.appId, {}, { cookie });
    expect(expired.status).toBe(401);
    expect(expectErrorBody(expired.body).code).toBe('portal_login_required');
  });

  it("APP-1: another account's app, or an unknown app, is 404 resource_missing", async () => {
    const emu = testEmulator();
    const trialCookie = await portalCookie(emu, 'acct_trial');
    for (const appId of [DEMO.appId, 'app_nope']) {
      const res = await patch(emu, appId, { results_delivery_enabled: true }, { cookie: trialCookie });
      expect(res.status).toBe(404);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'app_id' });
    }
    expect(emu.store.apps.get(DEMO.appId)!.results_delivery_enabled).toBe(0);
    const login = await emu.call('POST', '/_scanctl/portal/login', { json: { account_id: 'acct_nope' } });
    expect(login.status).toBe(404);
  });

  it('APP-1: CHOICE-6 body validation: bad URLs, wrong types and unknown fields are 400 naming the field', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    const cases: Array<[unknown, string, string]> = [
      [{ webhook_url: 'not a url' }, 'parameter_invalid', 'webhook_url'],
      [{ webhook_url: 'ftp://example.test/x' }, 'parameter_invalid', 'webhook_url'],
      [{ webhook_url: `https://example.test/${'x'.repeat(2100)}` }, 'parameter_invalid', 'webhook_url'],
      [{ webhook_url: 42 }, 'parameter_invalid', 'webhook_url'],
      [{ results_delivery_enabled: 'yes' }, 'parameter_invalid', 'results_delivery_enabled'],
      [{ bundle_id: 'com.x' }, 'parameter_unknown', 'bundle_id'],
      [{ webhook_secret: 'whsec_x' }, 'parameter_unknown', 'webhook_secret'],
    ];
    for (const [json, code, param] of cases) {
      const res = await patch(emu, DEMO.appId, json, { cookie });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(expectErrorBody(res.body)).toMatchObject({ code, param });
    }
    const text = await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, {
      body: 'x=1',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
  });

  it('APP-2: the whsec_ secret is issued once, in the answer of the PATCH that first sets webhook_url', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu, 'acct_trial');
    const before = await emu.call('GET', '/_scanctl/apps/app_trial');
    expect(before.body.webhook_secret_hint).toBeNull();
    // Changing only results delivery issues nothing.
    const noUrl = await patch(emu, 'app_trial', { results_delivery_enabled: true }, { cookie });
    expect(noUrl.body.webhook_secret).toBeUndefined();
    const first = await patch(emu, 'app_trial', { webhook_url: 'http://127.0.0.1:9/hook' }, { cookie });
    expect(first.status).toBe(200);
    const secret: string = first.body.webhook_secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{16,}$/);
    expect(first.body.webhook_secret_hint).toBe(`whsec_...${secret.slice(-4)}`);
    const second = await patch(emu, 'app_trial', { webhook_url: 'http://127.0.0.1:9/other' }, { cookie });
    expect(second.body.webhook_secret).toBeUndefined();
    expect(second.body.webhook_secret_hint).toBe(first.body.webhook_secret_hint);
    // Clearing and setting again keeps the same secret; it is not shown again.
    await patch(emu, 'app_trial', { webhook_url: null }, { cookie });
    const again = await patch(emu, 'app_trial', { webhook_url: 'http://127.0.0.1:9/again' }, { cookie });
    expect(again.body.webhook_secret).toBeUndefined();
    const shown = await emu.call('GET', '/_scanctl/apps/app_trial');
    expect(JSON.stringify(shown.body)).not.toContain(secret);
    // The emulator keeps it sealed, never in plain text in the database, and can read it back.
    expect(emu.store.db.serialize().toString('latin1').includes(secret.slice(6))).toBe(false);
    const reveal = await emu.call('GET', '/_scanctl/apps/app_trial/webhook-secret');
    expect(reveal.body.webhook_secret).toBe(secret);
  });

  it('APP-2: the demo app already holds its fixture secret, so no PATCH ever returns one', async () => {
    const emu = testEmulator();
    const cookie = await portalCookie(emu);
    const res = await patch(emu, DEMO.appId, { webhook_url: 'https://example.test/hooks' }, { cookie });
    expect(res.body.webhook_secret).toBeUndefined();
    expect(res.body.webhook_secret_hint).toBe(`whsec_...${DEMO.webhookSecret.slice(-4)}`);
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/webhook-secret`)).body.webhook_secret).toBe(DEMO.webhookSecret);
  });

  it('APP-4: results_delivery_enabled is off by default', async () => {
    const emu = testEmulator({
      fixtures: JSON.stringify({
        accounts: [{ id: 'acct_x' }],
        apps: [{ id: 'app_x', account_id: 'acct_x', name: 'X', bundle_id: 'com.x', team_id: 'ABCDEFGHIJ' }],
      }),
    });
    const app = await emu.call('GET', '/_scanctl/apps/app_x');
    expect(app.body).toMatchObject({ results_delivery_enabled: false, webhook_url: null, webhook_secret_hint: null });
    expect(emu.store.apps.get('app_x')!.results_delivery_enabled).toBe(0);
    const demo = testEmulator();
    expect((await demo.call('GET', `/_scanctl/apps/${DEMO.appId}`)).body.results_delivery_enabled).toBe(false);
  });
});
