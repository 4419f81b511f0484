import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/util/crypto.js';
import { DEMO, expectErrorBody, testEmulator } from '../../../helpers/emulator.js';

// Mints that arrive together share one transaction (group commit, bench/sessions-throughput):
// each is still its own unit, and each answer comes only after the commit.
describe('POST /v1/sessions group commit', () => {
  it('SES-9: concurrent mints over the quota: exactly the quota succeeds, each refusal rolls back alone', async () => {
    const emu = testEmulator();
    expect((await emu.call('POST', `/_scanctl/apps/${DEMO.appId}/quota`, { json: { daily_session_quota: 5 } })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: `member_${i}` } }),
      ),
    );
    const minted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(minted).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(expectErrorBody(r.body).code).toBe('quota_exceeded');
    // Every acknowledged token is stored (by hash), and nothing of the refused ones.
    expect(emu.store.sessions.countForApp(DEMO.appId)).toBe(5);
    for (const m of minted) expect(emu.store.sessions.byTokenHash(sha256Hex(m.body.session_token))).toBeDefined();
    const day = new Date(emu.clock.now()).toISOString().slice(0, 10);
    expect(emu.store.quota.used(DEMO.appId, day)).toBe(5);
  });

  it('SES-2: a batch of concurrent mints answers only after the commit: every answered token authenticates', async () => {
    const emu = testEmulator();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'member_1' } })),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(emu.store.db.inTransaction).toBe(false);
    for (const a of answers) {
      const models = await emu.call('GET', '/v1/models', { headers: { authorization: `Bearer ${a.body.session_token}` } });
      expect(models.status).toBe(200);
    }
  });
});
