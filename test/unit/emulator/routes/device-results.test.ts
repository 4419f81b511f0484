import { describe, expect, it } from 'vitest';
import { CHOICES } from '../../../../src/contract/choices.js';
import { canonicalJson, nestedDeeperThan } from '../../../../src/util/raw-json.js';
import { DEMO, expectErrorBody, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { completedScan, enroll, event, mint, RESULT, runScan, setResultsDelivery, upload, uid } from '../../../helpers/device.js';

const count = (emu: TestEmulator, sql: string, ...args: unknown[]) => (emu.store.db.prepare(sql).get(...args) as { n: number }).n;
const eventsOf = (emu: TestEmulator, scanId: string) =>
  emu.store.db
    .prepare<[string], { type: string }>('SELECT type FROM events WHERE scan_id = ?')
    .all(scanId)
    .map((r) => r.type);

describe('PUT /v1/scans/{scan_id}/result', () => {
  it('DEV-7: with results delivery off the upload is refused (403 results_delivery_disabled), permanently', async () => {
    const emu = testEmulator();
    const { token, installation, scanId } = await completedScan(emu);
    for (let i = 0; i < 2; i += 1) {
      const res = await upload(emu, token, scanId, installation);
      expect(res.status).toBe(403);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'permission_error', code: 'results_delivery_disabled' });
      expect(res.body.error.message).toMatch(/permanent/);
    }
  });

  it('DEV-9: without results delivery nothing is stored and no scan.results_available is queued, even for a malformed body', async () => {
    const emu = testEmulator();
    const { token, installation, scanId } = await completedScan(emu);
    await upload(emu, token, scanId, installation);
    const malformed = await emu.call('PUT', `/v1/scans/${scanId}/result`, {
      key: token,
      body: '{"result":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.body.error.code).toBe('results_delivery_disabled');
    expect(count(emu, 'SELECT count(*) AS n FROM results')).toBe(0);
    expect(eventsOf(emu, scanId)).toEqual(['scan.completed']);
    const scans = await emu.call('GET', `/_scanctl/apps/${DEMO.appId}/scans`);
    expect(scans.body.data[0].result_stored).toBe(false);
  });

  it('DEV-8: a re-uploaded result is the same result: one stored row, one scan.results_available', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const { token, installation, scanId } = await completedScan(emu);
    const first = await upload(emu, token, scanId, installation);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'scan_result', scan_id: scanId, stored: true, duplicate: false });
    await emu.advance(30_000);
    // The re-upload may come with a new token and keys in another order: still the same result.
    const fresh = await mint(emu);
    const reordered = { measurements: RESULT.measurements, modelVersion: RESULT.modelVersion };
    const again = await upload(emu, fresh, scanId, installation, reordered);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, stored_at: first.body.stored_at });
    expect(count(emu, 'SELECT count(*) AS n FROM results WHERE scan_id = ?', scanId)).toBe(1);
    expect(count(emu, 'SELECT uploads AS n FROM results WHERE scan_id = ?', scanId)).toBe(2);
    expect(eventsOf(emu, scanId).sort()).toEqual(['scan.completed', 'scan.results_available']);
    const stored = emu.store.device.result(DEMO.appId, scanId)!;
    expect(JSON.parse(stored.body)).toEqual(RESULT);

    const different = await upload(emu, token, scanId, installation, { ...RESULT, modelVersion: 'other' });
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('scan_conflict');
  });

  it('only a completed scan of the same member has a result (404 unknown scan, 409 scan_not_completed)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    expect((await upload(emu, token, 'scn_nowhere', installation)).status).toBe(404);
    const scanId = uid('scn');
    await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'failed' });
    const failed = await upload(emu, token, scanId, installation);
    expect(failed.status).toBe(409);
    expect(failed.body.error.code).toBe('scan_not_completed');
    expect(count(emu, 'SELECT count(*) AS n FROM results')).toBe(0);
  });

  it('SES-6: a token bound to one scan cannot upload the result of another (403 session_token_used)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const a = await completedScan(emu);
    const token = await mint(emu);
    const other = uid('scn');
    await event(emu, token, { installation_id: a.installation, scan_id: other, status: 'completed' });
    const res = await upload(emu, token, a.scanId, a.installation);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('session_token_used');
  });
});

describe('CHOICE-40: deeply nested results', () => {
  /** A result nested `depth` levels deep (the result object itself is level 1), as raw text. */
  const nested = (depth: number) => `{"installation_id":"INS","result":${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}}`;
  const put = (emu: TestEmulator, token: string, scanId: string, installation: string, depth: number) =>
    emu.call('PUT', `/v1/scans/${scanId}/result`, {
      key: token,
      body: nested(depth).replace('INS', installation),
      headers: { 'content-type': 'application/json' },
    });

  it('ERR-1: a result nested 5,000 or 3,000 deep is 400 parameter_invalid with the spec error body, never a 500, and nothing is stored', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const { token, installation, scanId } = await completedScan(emu);
    for (const depth of [5_000, 3_000, 5_000, CHOICES.resultMaxDepth + 1]) {
      const res = await put(emu, token, scanId, installation, depth);
      expect(res.status).toBe(400);
      expect(expectErrorBody(res.body)).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'result' });
      expect(res.body.error.message).toContain(`at most ${CHOICES.resultMaxDepth}`);
    }
    expect(count(emu, 'SELECT count(*) AS n FROM results')).toBe(0);
    expect(eventsOf(emu, scanId)).toEqual(['scan.completed']);
  });

  it('CHOICE-40: a result exactly at the depth limit is stored, and its re-upload is the same result (DEV-8)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const { token, installation, scanId } = await completedScan(emu);
    expect((await put(emu, token, scanId, installation, CHOICES.resultMaxDepth)).status).toBe(201);
    const again = await put(emu, token, scanId, installation, CHOICES.resultMaxDepth);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true });
  });

  it('the canonical form is one linear pass without recursion: 100,000 levels neither overflow the stack nor take quadratic time', () => {
    const depth = 100_000;
    const text = `${'[{"b":1, "a":'.repeat(depth)}0${'}]'.repeat(depth)}`;
    expect(canonicalJson(text)).toBe(`${'[{"a":'.repeat(depth)}0${',"b":1}]'.repeat(depth)}`);
    expect(nestedDeeperThan(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`), depth - 1)).toBe(true);
    expect(canonicalJson('{"z": [1.50, "\\u00e9", {"y": 2E+3, "x": null}], "a": true, "a": false}')).toBe(
      '{"a":false,"z":[1.50,"\u00e9",{"x":null,"y":2E+3}]}',
    );
  });
});

describe('DELETE /v1/results and stored results', () => {
  it("CHOICE-10: data is not separated by environment for deletion: the test key deletes the member's live results too, and the live key the test ones", async () => {
    for (const [caller, other] of [
      [DEMO.testSecret, DEMO.liveSecret],
      [DEMO.liveSecret, DEMO.testSecret],
    ] as const) {
      const emu = testEmulator();
      await setResultsDelivery(emu, true);
      const envs: string[] = [];
      for (const key of [caller, other]) {
        const token = await mint(emu, 'member_1', { key });
        const installation = await enroll(emu, token);
        const scanId = uid('scn');
        expect((await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' })).status).toBe(201);
        expect((await upload(emu, token, scanId, installation)).status).toBe(201);
        envs.push(String((emu.store.db.prepare('SELECT env FROM scans WHERE id = ?').get(scanId) as { env: string }).env));
      }
      // One result of each environment, then one call with one key removes both.
      expect(envs.sort()).toEqual(['live', 'test']);
      const res = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: caller });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ host_user_ref: 'member_1', deleted: 2 });
      expect(count(emu, "SELECT count(*) AS n FROM results WHERE host_user_ref = 'member_1'")).toBe(0);
    }
  });

  it("DEL-2: removes every stored result of the member under the calling key's app, leaves others and the scans", async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    for (const user of ['member_1', 'member_1', 'member_2']) {
      const s = await completedScan(emu, user);
      expect((await upload(emu, s.token, s.scanId, s.installation)).status).toBe(201);
    }
    const res = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: DEMO.testSecret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ host_user_ref: 'member_1', deleted: 2 });
    expect(count(emu, "SELECT count(*) AS n FROM results WHERE host_user_ref = 'member_1'")).toBe(0);
    expect(count(emu, "SELECT count(*) AS n FROM results WHERE host_user_ref = 'member_2'")).toBe(1);
    expect(count(emu, 'SELECT count(*) AS n FROM scans')).toBe(3);
    const again = await emu.call('DELETE', '/v1/results?host_user_ref=member_1', { key: DEMO.testSecret });
    expect(again.body.deleted).toBe(0);
    // Another app's key deletes nothing of this app.
    const trial = await emu.call('DELETE', '/v1/results?host_user_ref=member_2', { key: 'sk_test_trialSecretKey0000000000001' });
    expect(trial.body.deleted).toBe(0);
    expect(count(emu, "SELECT count(*) AS n FROM results WHERE host_user_ref = 'member_2'")).toBe(1);
  });

  it('DEL-2: a live-key scan result is deleted by the member deletion too (results are per app)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const token = await mint(emu, 'member_9', { key: DEMO.liveSecret });
    const installation = await enroll(emu, token);
    const scanId = await runScan(emu, { user: 'member_9', key: DEMO.liveSecret, installation });
    const live = await mint(emu, 'member_9', { key: DEMO.liveSecret });
    expect((await upload(emu, live, scanId, installation)).status).toBe(201);
    const res = await emu.call('DELETE', '/v1/results?host_user_ref=member_9', { key: DEMO.liveSecret });
    expect(res.body.deleted).toBe(1);
  });
});
