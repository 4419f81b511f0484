import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../src/contract/choices.js';
import { applyFixtures } from '../../../src/emulator/domain/apply-fixtures.js';
import { FixtureError, parseFixtures, readFixtures } from '../../../src/emulator/fixture-file.js';
import { DEMO, FIXTURES_FILE, testEmulator } from '../../helpers/emulator.js';
import { tempDir } from '../../helpers/temp.js';

const base = () => JSON.parse(JSON.stringify(readFixtures(FIXTURES_FILE)));

function refusal(json: unknown, file = 'mine.json'): FixtureError {
  try {
    parseFixtures(typeof json === 'string' ? json : JSON.stringify(json), file);
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return error as FixtureError;
  }
  throw new Error('the fixtures were accepted');
}

describe('fixtures', () => {
  it('a file read again unchanged is validated once, and each reader gets its own copy; a changed file is read anew', () => {
    const file = join(tempDir(), 'mine.json');
    writeFileSync(file, JSON.stringify(base()));
    const first = readFixtures(file);
    const second = readFixtures(file);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    first.apps[0]!.name = 'changed by its reader';
    expect(readFixtures(file).apps[0]!.name).not.toBe('changed by its reader');
    const edited = base();
    edited.apps[0].name = 'Edited';
    writeFileSync(file, JSON.stringify(edited));
    expect(readFixtures(file).apps[0]!.name).toBe('Edited');
    writeFileSync(file, JSON.stringify({ ...edited, colour: 'blue' }));
    expect(() => readFixtures(file)).toThrow(FixtureError);
    expect(() => readFixtures(file)).toThrow(FixtureError);
  });

  it('the bundled file is valid: two accounts, app_demo with both pairs, app_trial with test keys only', () => {
    const fixtures = readFixtures(FIXTURES_FILE);
    expect(fixtures.accounts.map((a) => a.id)).toEqual(['acct_demo', 'acct_trial']);
    expect(fixtures.apps.map((a) => a.id)).toEqual(['app_demo', 'app_trial']);
    expect(fixtures.apps[0]!.keys.test?.secret).toBe(DEMO.testSecret);
    expect(fixtures.apps[1]!.keys.live).toBeUndefined();
  });

  it('fills the defaults of every optional field', () => {
    const fixtures = parseFixtures(
      JSON.stringify({
        accounts: [{ id: 'acct_x' }],
        apps: [{ id: 'app_x', account_id: 'acct_x', name: 'X', bundle_id: 'com.x', team_id: 'ABCDEFGHIJ' }],
      }),
      'x.json',
    );
    expect(fixtures.accounts[0]).toEqual({ id: 'acct_x', suspended: false });
    expect(fixtures.apps[0]).toEqual({
      id: 'app_x',
      account_id: 'acct_x',
      name: 'X',
      bundle_id: 'com.x',
      team_id: 'ABCDEFGHIJ',
      billing_profile: false,
      terms_accepted: false,
      webhook_url: null,
      webhook_secret: null,
      results_delivery_enabled: false,
      daily_session_quota: CHOICES.defaultDailySessionQuota,
      keys: {},
    });
    expect(parseFixtures('{}', 'empty.json')).toEqual({ accounts: [], apps: [] });
  });

  it('a bad file is refused naming the file, the field and the reason', () => {
    const cases: Array<[(f: any) => unknown, string, RegExp]> = [
      [(f) => ((f.apps[0].team_id = 'SHORT'), f), 'apps[0].team_id', /exactly 10 characters/],
      [(f) => ((f.apps[1].id = 'trial'), f), 'apps[1].id', /app_/],
      [(f) => ((f.apps[0].keys.test.secret = 'sk_live_demoSecretKey00000000000009'), f), 'apps[0].keys.test.secret', /sk_test_/],
      [(f) => ((f.apps[0].keys.test.secret = 'sk_test_x'), f), 'apps[0].keys.test.secret', /16 to 128/],
      [(f) => ((f.apps[0].keys.live.publishable = 'pk_test_demoPublishableKey000000009'), f), 'apps[0].keys.live.publishable', /pk_live_/],
      [(f) => ((f.apps[0].billing_profile = false), f), 'apps[0].keys.live', /billing_profile and terms_accepted/],
      [(f) => ((f.apps[0].terms_accepted = false), f), 'apps[0].keys.live', /AUTH-10/],
      [(f) => ((f.apps[1].account_id = 'acct_ghost'), f), 'apps[1].account_id', /no account "acct_ghost"/],
      [(f) => ((f.apps[0].colour = 'red'), f), 'apps[0].colour', /unknown field/],
      [(f) => ((f.extra = 1), f), 'extra', /unknown field/],
      [(f) => ((f.apps[0].webhook_url = 'ftp://x'), f), 'apps[0].webhook_url', /./],
      [(f) => ((f.apps[0].webhook_secret = 'secret'), f), 'apps[0].webhook_secret', /whsec_/],
      [(f) => ((f.apps[0].daily_session_quota = -1), f), 'apps[0].daily_session_quota', /./],
      [(f) => ((f.apps[0].daily_session_quota = 1.5), f), 'apps[0].daily_session_quota', /./],
      [(f) => ((f.apps[0].name = ''), f), 'apps[0].name', /./],
      [(f) => (delete f.apps[0].bundle_id, f), 'apps[0].bundle_id', /./],
      [(f) => ((f.accounts[1].id = 'acct_demo'), f), 'accounts[1].id', /duplicate account id/],
      [(f) => ((f.apps[1].id = 'app_demo'), f), 'apps[1].id', /duplicate app id/],
      [(f) => ((f.apps[1].keys.test.secret = DEMO.testSecret), f), 'apps[1].keys.test.secret', /twice/],
      [(f) => ((f.apps = {}), f), 'apps', /./],
      [() => [], '', /./],
    ];
    for (const [mutate, field, reason] of cases) {
      const error = refusal(mutate(base()));
      expect(error.file).toBe('mine.json');
      expect(error.field, field).toBe(field);
      expect(error.reason).toMatch(reason);
      const first = `${field ? `${field}: ` : ''}${error.reason}`;
      if (error.problems.length === 1) expect(error.message).toBe(`mine.json: ${first}`);
      else {
        expect(error.message).toMatch(new RegExp(`^mine\\.json: ${error.problems.length} problems: `));
        expect(error.message).toContain(first);
      }
      // A key that is refused is never echoed back in the message.
      expect(error.message).not.toContain(DEMO.testSecret);
    }
  });

  it('a file that is not JSON, or cannot be read, is refused with the file and the reason', () => {
    const dir = tempDir('scanctl-fixtures-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ "accounts": [ }');
    expect(() => readFixtures(bad)).toThrow(FixtureError);
    expect(() => readFixtures(bad)).toThrow(/bad\.json: not valid JSON/);
    expect(() => readFixtures(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot be read \(ENOENT\)/);
    expect(() => readFixtures(dir)).toThrow(/cannot be read \(EISDIR\)/);
  });

  it('loading into a database that has the same ids is an upsert: values change, nothing crashes, keys keep their state', async () => {
    const emu = testEmulator();
    const control = (path: string, json: unknown = {}) => emu.call('POST', `/_scanctl${path}`, { json });
    await control(`/apps/${DEMO.appId}/keys/revoke`, { env: 'test' });
    await control(`/apps/${DEMO.appId}/keys/suspend`, { env: 'live' });
    const before = emu.store.keys.forApp(DEMO.appId).length;

    const next = base();
    next.apps[0].name = 'Demo renamed';
    next.apps[0].daily_session_quota = 7;
    next.apps[0].results_delivery_enabled = true;
    next.apps[1].webhook_url = 'https://example.test/trial';
    next.accounts.push({ id: 'acct_new', suspended: true });
    next.apps.push({
      id: 'app_new',
      account_id: 'acct_new',
      name: 'New',
      bundle_id: 'com.new',
      team_id: 'NEWTEAM123',
      keys: { test: { secret: 'sk_test_newAppSecretKey000000000001', publishable: 'pk_test_newAppPublishable0000000001' } },
    });
    const fixtures = parseFixtures(JSON.stringify(next), 'next.json');
    applyFixtures(emu.store, emu.ids, emu.box, emu.clock.now(), fixtures);
    applyFixtures(emu.store, emu.ids, emu.box, emu.clock.now(), fixtures);

    const app = emu.store.apps.get(DEMO.appId)!;
    expect(app).toMatchObject({ name: 'Demo renamed', daily_session_quota: 7, results_delivery_enabled: 1 });
    expect(emu.store.apps.get('app_trial')!.webhook_url).toBe('https://example.test/trial');
    expect(emu.store.keys.forApp(DEMO.appId)).toHaveLength(before);
    const mint = (key: string) => emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'm' } });
    expect((await mint(DEMO.testSecret)).body.error.code).toBe('key_revoked');
    expect((await mint(DEMO.liveSecret)).body.error.code).toBe('key_suspended');
    expect((await mint('sk_test_newAppSecretKey000000000001')).body.error.code).toBe('account_suspended');
    // The fixture's webhook secret is kept (sealed) and still the one the emulator signs with.
    expect((await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/webhook-secret`)).body.webhook_secret).toBe(DEMO.webhookSecret);
  });

  it('an app without a webhook_secret in the fixtures keeps the one the portal issued', async () => {
    const emu = testEmulator();
    const { portalCookie } = await import('../../helpers/emulator.js');
    const cookie = await portalCookie(emu, 'acct_trial');
    const issued = await emu.call('PATCH', '/v1/apps/app_trial', { json: { webhook_url: 'https://example.test/h' }, headers: { cookie } });
    const secret = issued.body.webhook_secret;
    applyFixtures(emu.store, emu.ids, emu.box, emu.clock.now(), readFixtures(FIXTURES_FILE));
    expect((await emu.call('GET', '/_scanctl/apps/app_trial/webhook-secret')).body.webhook_secret).toBe(secret);
    // The fixture's own webhook_url (null) is what an explicit fixture load restores.
    expect(emu.store.apps.get('app_trial')!.webhook_url).toBeNull();
  });
});
