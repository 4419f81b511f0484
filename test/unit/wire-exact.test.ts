import { describe, expect, it } from 'vitest';
import { DEMO, testEmulator, type TestEmulator } from '../helpers/emulator.js';
import { enroll, event, mint, setResultsDelivery, uid } from './device-helpers.js';

/** Results, strings and dates exactly as sent: what a fuzzer found re-serialized or changed. */

async function completedScan(emu: TestEmulator) {
  const token = await mint(emu);
  const installation = await enroll(emu, token);
  const scanId = uid('scn');
  expect((await event(emu, token, { installation_id: installation, scan_id: scanId, status: 'completed' })).status).toBe(201);
  return { token, installation, scanId };
}

const uploadText = (emu: TestEmulator, token: string, scanId: string, text: string) =>
  emu.call('PUT', `/v1/scans/${scanId}/result`, { key: token, body: text, headers: { 'content-type': 'application/json' } });

const payloadOf = (emu: TestEmulator, scanId: string) =>
  emu.store.db.prepare<[string], { payload: string }>("SELECT payload FROM events WHERE scan_id = ? AND type = 'scan.results_available'").get(scanId)!.payload;

describe('WH-3: a result is delivered exactly as uploaded', () => {
  const RESULT_TEXT = '{"frameId":12345678901234567890,"bodyFat":81.0,"huge":1e400,"tiny":-0.0,"name":"\\u00e9t\\u00e9 \\ud83d\\ude00","nested":{"list":[1.50,2E+3]}}';

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
