import { describe, expect, it } from 'vitest';
import { DEMO, testEmulator, type TestEmulator } from '../../../helpers/emulator.js';

async function someTraffic(emu: TestEmulator) {
  await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'member_1' } });
  await emu.call('POST', '/v1/sessions', { key: DEMO.liveSecret, json: { host_user_ref: 'member_2' } });
  await emu.call('POST', '/v1/sessions', { key: DEMO.testPublishable, json: { host_user_ref: 'member_3' } });
  await emu.call('POST', '/v1/sessions', { key: 'sk_test_unknownKey0000000000000000099', json: { host_user_ref: 'm' } });
  await emu.call('DELETE', `/v1/results?host_user_ref=member_1`, { key: DEMO.testSecret });
  await emu.call('GET', `/v1/${DEMO.testSecret}`);
}

describe('request log', () => {
  it('keeps recent lines with time, method, path, status, key display form, env, app, latency and error code', async () => {
    const emu = testEmulator();
    await someTraffic(emu);
    const r = await emu.call('GET', '/_scanctl/logs');
    const lines = r.body.data;
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      path: '/v1/sessions',
      status: 201,
      key: 'sk_test_...0001',
      env: 'test',
      app_id: 'app_demo',
    });
    expect(lines[0].latency_ms).toBeTypeOf('number');
    expect(lines[1]).toMatchObject({ key: 'sk_live_...0001', env: 'live' });
    expect(lines[2]).toMatchObject({ status: 401, error_code: 'publishable_key_used' });
    expect(lines[2].key).toBeUndefined();
    expect(lines[3]).toMatchObject({ status: 401, error_code: 'invalid_api_key' });
    // The control plane's own requests are left out unless asked for.
    expect(lines.some((l: { path: string }) => l.path.startsWith('/_scanctl'))).toBe(false);
  });

  it('no secret ever appears in a log line: keys in their display form, secret-shaped path segments redacted', async () => {
    const emu = testEmulator();
    await someTraffic(emu);
    const text = JSON.stringify((await emu.call('GET', '/_scanctl/logs?all=1')).body);
    for (const secret of [DEMO.testSecret, DEMO.liveSecret, DEMO.testPublishable, 'sk_test_unknownKey0000000000000000099']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('/v1/sk_test_...0001');
  });

  it('filters by status class or code, path prefix, method and app; -n keeps the last n', async () => {
    const emu = testEmulator();
    await someTraffic(emu);
    const get = async (q: string) =>
      (await emu.call('GET', `/_scanctl/logs?${q}`)).body.data as Array<{ status: number; method: string; path: string }>;
    expect((await get('status=4xx')).map((l) => l.status)).toEqual([401, 401, 404]);
    expect((await get('status=401')).length).toBe(2);
    expect((await get('status=2xx,404')).length).toBe(4);
    expect((await get('method=delete')).map((l) => l.path)).toEqual(['/v1/results']);
    expect((await get('path=/v1/sessions')).length).toBe(4);
    expect((await get('app=app_demo')).length).toBe(3);
    expect((await get('n=2')).map((l) => l.method)).toEqual(['DELETE', 'GET']);
    expect((await emu.call('GET', '/_scanctl/logs?status=abc')).status).toBe(400);
  });

  it('--since keeps the lines of the last duration on the emulator clock', async () => {
    const emu = testEmulator();
    await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'early' } });
    await emu.advance(10 * 60_000);
    await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'late' } });
    expect((await emu.call('GET', '/_scanctl/logs?since=5m')).body.data).toHaveLength(1);
    expect((await emu.call('GET', '/_scanctl/logs?since=15m')).body.data).toHaveLength(2);
  });

  it('keeps only the last 1000 lines', async () => {
    const emu = testEmulator();
    for (let i = 0; i < 1010; i++) await emu.app.request('/v1/nothing');
    const lines = (await emu.call('GET', '/_scanctl/logs?n=1000')).body.data;
    expect(lines).toHaveLength(1000);
    expect(lines[0].seq).toBe(11);
  });

  it('streams lines live as Server-Sent Events, the backlog of -n first', async () => {
    const emu = testEmulator();
    await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'before' } });
    const controller = new AbortController();
    const response = await emu.app.request('/_scanctl/logs/stream?n=5&status=4xx,2xx', { signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}: ${text}`);
        text += decoder.decode(value);
      }
    };
    await readUntil('event: ready');
    expect(text).toContain('"status":201');
    await emu.call('POST', '/v1/sessions', { key: DEMO.testPublishable, json: { host_user_ref: 'after' } });
    await readUntil('publishable_key_used');
    expect(text).not.toContain(DEMO.testPublishable);
    controller.abort();
    await reader.cancel().catch(() => undefined);
  });
});
