import { describe, expect, it } from 'vitest';
import { DEMO, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { completedScan, enroll, event, mint, setResultsDelivery, uid } from '../../../helpers/device.js';

/** Results, strings and dates exactly as sent: what a fuzzer found re-serialized or changed. */

const uploadText = (emu: TestEmulator, token: string, scanId: string, text: string) =>
  emu.call('PUT', `/v1/scans/${scanId}/result`, { key: token, body: text, headers: { 'content-type': 'application/json' } });

const payloadOf = (emu: TestEmulator, scanId: string) =>
  emu.store.db
    .prepare<[string], { payload: string }>("SELECT payload FROM events WHERE scan_id = ? AND type = 'scan.results_available'")
    .get(scanId)!.payload;

describe('WH-3: a result is delivered exactly as uploaded', () => {
  const RESULT_TEXT =
    '{"frameId":12345678901234567890,"bodyFat":81.0,"huge":1e400,"tiny":-0.0,"name":"\\u00e9t\\u00e9 \\ud83d\\ude00","nested":{"list":[1.50,2E+3]}}';

  it('WH-3: large integers, 81.0, 1e400 and unicode escapes reach scan.results_available as the characters sent (the signed bytes)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const { token, installation, scanId } = await completedScan(emu);
    const res = await uploadText(emu, token, scanId, `{ "installation_id": ${JSON.stringify(installation)},\n  "result": ${RESULT_TEXT} }`);
    expect(res.status).toBe(201);
    const payload = payloadOf(emu, scanId);
    expect(payload).toContain(`"result":${RESULT_TEXT}}`);
    expect(payload).toContain('12345678901234567890');
    expect(payload).not.toContain('12345678901234567000');
    // The rest of the body is still the event shape (WH-1), result last in data.
    const parsed = JSON.parse(payload);
    expect(Object.keys(parsed)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(Object.keys(parsed.data).at(-1)).toBe('result');
    expect(emu.store.device.result(DEMO.appId, scanId)!.body).toBe(RESULT_TEXT);
  });

  it('WH-3, DEV-8: a re-upload is the same result only when its numbers are the same text (81.0 is not 81)', async () => {
    const emu = testEmulator();
    await setResultsDelivery(emu, true);
    const { token, installation, scanId } = await completedScan(emu);
    const body = (result: string) => `{"installation_id":${JSON.stringify(installation)},"result":${result}}`;
    expect((await uploadText(emu, token, scanId, body('{"a":12345678901234567890,"b":81.0}'))).status).toBe(201);
    const fresh = await mint(emu);
    // Same text in another key order and spacing: the same result.
    expect((await uploadText(emu, fresh, scanId, body('{ "b": 81.0, "a": 12345678901234567890 }'))).status).toBe(200);
    // Equal as JavaScript numbers, different as sent: a different result.
    const other = await uploadText(emu, await mint(emu), scanId, body('{"a":12345678901234567891,"b":81}'));
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('scan_conflict');
  });
});

describe('SES-1: host_user_ref is kept exactly or refused', () => {
  it('SES-1: a lone surrogate is refused (400 parameter_invalid), nothing minted or billed under another string', async () => {
    const emu = testEmulator();
    for (const text of ['{"host_user_ref":"\\ud800"}', '{"host_user_ref":"a\\udc00b"}', '{"host_user_ref":"\\ud83d"}']) {
      const res = await emu.call('POST', '/v1/sessions', {
        key: DEMO.testSecret,
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, text).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'host_user_ref' });
    }
    const pair = await emu.call('POST', '/v1/sessions', {
      key: DEMO.testSecret,
      body: '{"host_user_ref":"\\ud83d\\ude00"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(pair.status).toBe(201);
    expect((emu.store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBe(1);
  });

  it('SES-1, DEL-1: bad percent-encoding in a query is refused, never echoed as its raw text', async () => {
    const emu = testEmulator();
    for (const query of ['host_user_ref=%FF', 'host_user_ref=%E0%A4', 'host_user_ref=%ED%A0%80', 'host_user_ref=%zz', '%FF=1']) {
      const res = await emu.call('DELETE', `/v1/results?${query}`, { key: DEMO.testSecret });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('parameter_invalid');
    }
    const ok = await emu.call('DELETE', '/v1/results?host_user_ref=%C3%A9t%C3%A9+x', { key: DEMO.testSecret });
    expect(ok.status).toBe(200);
    expect(ok.body.host_user_ref).toBe('été x');
  });

  it('CHOICE-20: an empty host_user_ref is refused (400 parameter_invalid)', async () => {
    const emu = testEmulator();
    const res = await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'host_user_ref' });
    const del = await emu.call('DELETE', '/v1/results?host_user_ref=', { key: DEMO.testSecret });
    expect(del.body.error).toMatchObject({ code: 'parameter_invalid', param: 'host_user_ref' });
  });
});

describe('CHOICE-14: one rule for query parameters on every route', () => {
  it('CHOICE-14: an undeclared query parameter is 400 parameter_unknown on backend, device, portal and control routes alike', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/v1/sessions?foo=1', { key: DEMO.testSecret, json: { host_user_ref: 'm' } }],
      ['DELETE', '/v1/results?host_user_ref=m&foo=1', { key: DEMO.testSecret }],
      ['POST', '/v1/device/challenge?foo=1', { key: token }],
      ['GET', '/_scanctl/info?foo=1', {}],
      ['GET', '/_scanctl/openapi.json?foo', {}],
      ['POST', '/_scanctl/clock/advance?foo=1', { json: { duration: '1m' } }],
    ];
    for (const [method, path, options] of cases) {
      const res = await emu.call(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error, `${method} ${path}`).toMatchObject({ code: 'parameter_unknown', param: 'foo' });
    }
    // Nothing happened: the clock did not move, no session was minted besides the first.
    expect((emu.store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBe(1);
  });

  it('CHOICE-14: GET /_scanctl/logs refuses n= that is not a whole number and since= that is neither a duration nor a date-time', async () => {
    const emu = testEmulator();
    for (const query of ['n=', 'n=1.5', 'n=abc', 'n=-1', 'n=1001', 'since=garbage', 'since=', 'since=2026-13-01T00:00:00Z']) {
      const res = await emu.call('GET', `/_scanctl/logs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('parameter_invalid');
    }
    for (const query of ['n=0', 'n=1000', 'since=5m', 'since=1h30m', 'since=2026-11-22t09:00:00z']) {
      expect((await emu.call('GET', `/_scanctl/logs?${query}`)).status, query).toBe(200);
    }
  });
});

describe('DEV-5: occurred_at takes every RFC 3339 date-time', () => {
  it('DEV-5: lowercase t and z, offsets, any fraction and a leap second are accepted, at the instant they name', async () => {
    const emu = testEmulator();
    const token = await mint(emu);
    const installation = await enroll(emu, token);
    const forms: Array<[string, string]> = [
      ['2026-11-22t09:00:00z', '2026-11-22T09:00:00.000Z'],
      ['2026-11-22T10:30:00+01:30', '2026-11-22T09:00:00.000Z'],
      ['2026-11-22T08:00:00-01:00', '2026-11-22T09:00:00.000Z'],
      ['2026-11-22T09:00:00.123456789Z', '2026-11-22T09:00:00.123Z'],
      ['2026-11-22T09:00:00-00:00', '2026-11-22T09:00:00.000Z'],
      ['2026-06-30T23:59:60Z', '2026-07-01T00:00:00.000Z'],
    ];
    for (const [sent, stored] of forms) {
      const scanId = uid('scn');
      const res = await event(emu, await mint(emu), {
        installation_id: installation,
        scan_id: scanId,
        status: 'completed',
        occurred_at: sent,
      });
      expect(res.status, sent).toBe(201);
      expect(res.body.occurred_at ?? stored, sent).toBe(stored);
      const row = emu.store.device.scan(DEMO.appId, scanId)!;
      expect(new Date(row.occurred_at!).toISOString(), sent).toBe(stored);
    }
    for (const bad of [
      '2026-11-22 09:00:00Z',
      '2026-11-22T09:00:00',
      '2026-02-30T09:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T09:00:00+1:00',
      '2026-11-22',
    ]) {
      const res = await event(emu, await mint(emu), {
        installation_id: installation,
        scan_id: uid('scn'),
        status: 'completed',
        occurred_at: bad,
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toMatchObject({ code: 'parameter_invalid', param: 'occurred_at' });
    }
  });
});

describe('ERR-1: what the fuzzer found in the control plane', () => {
  it('ERR-1: a state file whose clock offset leaves the range of dates is refused (400), and every route still answers', async () => {
    const emu = testEmulator();
    const state = (await emu.call('GET', '/_scanctl/state')).body;
    for (const offset of [1e300, -1e300, 9e15]) {
      const res = await emu.call('POST', '/_scanctl/state/import', { json: { ...state, clock_offset_ms: offset } });
      expect(res.status, String(offset)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'clock_offset_ms' });
    }
    expect((await emu.call('GET', '/_scanctl/clock')).status).toBe(200);
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).status).toBe(201);
  });
});
