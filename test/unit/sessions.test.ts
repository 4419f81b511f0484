import { describe, expect, it } from 'vitest';
import { DEMO, expectErrorBody, testEmulator } from '../helpers/emulator.js';

describe('POST /v1/sessions', () => {
  it('AUTH-1: sk_test_ and sk_live_ secret keys both mint', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testSecret, DEMO.liveSecret]) {
      const res = await emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'member_1' } });
      expect(res.status).toBe(201);
      expect(res.body.session_token).toMatch(/^vst_/);
    }
  });

  it('AUTH-2: a publishable key gets 401 publishable_key_used', async () => {
    const emu = testEmulator();
    for (const key of [DEMO.testPublishable, DEMO.livePublishable]) {
      const res = await emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'member_1' } });
      expect(res.status).toBe(401);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'authentication_error', code: 'publishable_key_used' });
    }
  });
});
