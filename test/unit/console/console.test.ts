import { describe, expect, it, vi } from 'vitest';
import { DEMO, testEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { startReceiver } from '../../helpers/webhook-receiver.js';
import { pointWebhooksAt, recordScan } from '../../helpers/webhook-setup.js';

const ORIGIN = 'http://localhost';

async function signIn(emu: TestEmulator, accountId: string = DEMO.accountId): Promise<string> {
  const res = await emu.app.request('/sign-in', {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    body: `account_id=${accountId}`,
  });
  expect(res.status).toBe(303);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function get(emu: TestEmulator, path: string, cookie: string) {
  const res = await emu.app.request(path, { headers: { cookie } });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

async function post(
  emu: TestEmulator,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  headers: Record<string, string> = { origin: ORIGIN },
) {
  const res = await emu.app.request(path, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

const scan = (emu: TestEmulator, hostUserRef: string, scanId: string): string =>
  recordScan(emu, { hostUserRef, scanId, modelVersion: '2026.10.1' });

const setWebhookUrl = (emu: TestEmulator, url: string) => pointWebhooksAt(emu, url);

describe('web console', () => {
  it('CHOICE-6: signing in gives the portal cookie (HttpOnly, SameSite=Strict); pages need it; signing out ends it', async () => {
    const emu = testEmulator();
    const anonymous = await emu.app.request('/keys');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/sign-in?next=%2Fkeys');
    const res = await emu.app.request('/sign-in', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'account_id=acct_demo&next=%2Fkeys',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/keys');
    expect(res.headers.get('set-cookie')).toMatch(/^scanctl_portal=psess_\w+; Path=\/; HttpOnly; SameSite=Strict$/);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    // The same cookie is the portal's: PATCH /v1/apps/{app_id} takes it (APP-1).
    expect(
      (await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, { headers: { cookie }, json: { results_delivery_enabled: true } })).status,
    ).toBe(200);
    expect((await get(emu, '/keys', cookie)).status).toBe(200);
    const out = await post(emu, '/sign-out', {}, cookie);
    expect(out.headers.get('location')).toBe('/sign-in?done=signed-out');
    expect((await get(emu, '/keys', cookie)).status).toBe(303);
    // A next that leaves the site is ignored.
    const away = await emu.app.request('/sign-in', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'account_id=acct_demo&next=%2F%2Fevil.example',
    });
    expect(away.headers.get('location')).toBe('/deliveries');
  });

  it('every page answers 200 with the navigation links named exactly, each page marked current in turn', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const pages = ['Deliveries', 'Settings', 'Keys', 'Scans', 'Usage', 'Clock', 'Installations'];
    for (const page of pages) {
      const { status, html, headers } = await get(emu, `/${page.toLowerCase()}`, cookie);
      expect(status, page).toBe(200);
      expect(headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(headers.get('cache-control')).toBe('no-store');
      for (const name of pages) expect(html).toMatch(new RegExp(`<a href="/${name.toLowerCase()}"( aria-current="page")?>${name}</a>`));
      expect(html).toContain(`<a href="/${page.toLowerCase()}" aria-current="page">${page}</a>`);
      expect(html).toContain(`<h1>${page}</h1>`);
    }
    expect((await get(emu, '/', cookie)).headers.get('location')).toBe('/deliveries');
  });

  it("CHOICE-3: a bad webhook URL is refused with the API's own error beside the field, and nothing changes", async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const api = await emu.call('PATCH', `/v1/apps/${DEMO.appId}`, {
      headers: { cookie },
      json: { webhook_url: 'ftp://nope', results_delivery_enabled: true },
    });
    expect(api.status).toBe(400);
    const before = emu.store.apps.get(DEMO.appId)!;
    const res = await post(
      emu,
      '/settings',
      { webhook_url: 'ftp://nope', results_delivery_enabled: 'true', daily_session_quota: '5' },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(res.html).toContain('<input id="settings-webhook_url" name="webhook_url" type="text" value="ftp://nope" inputmode="url"');
    expect(res.html).toContain('aria-invalid="true" aria-describedby="settings-webhook_url-hint settings-webhook_url-error"');
    expect(res.html).toContain(
      `<p class="error" id="settings-webhook_url-error">${api.body.error.message} <code>${api.body.error.code}</code></p>`,
    );
    expect(res.html).toContain(`<div class="error-summary" role="alert"><p>Nothing was changed: ${api.body.error.message}`);
    expect(emu.store.apps.get(DEMO.appId)).toEqual(before);
    // A quota the API refuses: its error, beside the quota; the valid webhook URL is not saved either.
    const quota = await post(emu, '/settings', { webhook_url: 'http://127.0.0.1:9/hooks', daily_session_quota: '-1' }, cookie);
    expect(quota.status).toBe(400);
    expect(quota.html).toContain('id="settings-daily_session_quota-error"');
    expect(quota.html).toContain('parameter_invalid');
    expect(emu.store.apps.get(DEMO.appId)).toEqual(before);
  });

  it('APP-2: saving settings issues the signing secret once, shown in that answer only; the hint afterwards, on every page', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu, 'acct_trial');
    const res = await post(
      emu,
      '/settings',
      { webhook_url: 'http://127.0.0.1:9/hooks', results_delivery_enabled: 'true', daily_session_quota: '7' },
      cookie,
    );
    expect(res.status).toBe(200);
    const secret = /value="(whsec_\w+)"/.exec(res.html)?.[1];
    expect(secret).toBeDefined();
    const app = emu.store.apps.get('app_trial')!;
    expect(app.webhook_url).toBe('http://127.0.0.1:9/hooks');
    expect(app.results_delivery_enabled).toBe(1);
    expect(app.daily_session_quota).toBe(7);
    expect(emu.box.open(app.webhook_secret_sealed!)).toBe(secret);
    for (const page of ['/settings', '/deliveries', '/keys', '/scans', '/usage', '/clock', '/installations']) {
      const { html } = await get(emu, page, cookie);
      expect(html, page).not.toContain(secret!);
      expect(html).not.toMatch(/whsec_[A-Za-z0-9]{8,}/);
    }
    expect((await get(emu, '/settings', cookie)).html).toContain(`<code>${app.webhook_secret_hint}</code>`);
    // Saving again issues nothing new.
    const again = await post(emu, '/settings', { webhook_url: 'http://127.0.0.1:9/other', daily_session_quota: '7' }, cookie);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/settings?done=saved');
  });

  it('AUTH-8, AUTH-11: rotating shows the new secret key once; the old one keeps working through its grace, shown as a countdown', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const res = await post(emu, '/keys/rotate', { env: 'test' }, cookie);
    expect(res.status).toBe(200);
    const secret = /value="(sk_test_\w+)"/.exec(res.html)![1]!;
    expect((await emu.call('POST', '/v1/sessions', { key: secret, json: { host_user_ref: 'm' } })).status).toBe(201);
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).status).toBe(201);
    const keys = await get(emu, '/keys', cookie);
    expect(keys.html).not.toContain(secret);
    expect(keys.html).toMatch(
      /rotating<\/span><span class="grace"> grace ends <time datetime="2026-11-23T10:00:00.000Z">2026-11-23 10:00:00Z<span class="muted"> \(in 1d\)<\/span>/,
    );
    // Bad input: the API's error beside the form it came from; nothing changed.
    const count = emu.store.keys.forApp(DEMO.appId).length;
    const bad = await post(emu, '/keys/issue', { env: 'prod' }, cookie);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('parameter_invalid');
    const exists = await post(emu, '/keys/issue', { env: 'test' }, cookie);
    expect(exists.status).toBe(409);
    expect(exists.html).toMatch(/role="alert"><p>Nothing was changed: app_demo already holds a test key pair/);
    expect(emu.store.keys.forApp(DEMO.appId).length).toBe(count);
  });

  it('a cross-site form post changes nothing: a foreign Origin, Sec-Fetch-Site cross-site, or neither header', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const before = emu.store.apps.get(DEMO.appId)!;
    const fields = { webhook_url: 'http://127.0.0.1:9/evil', daily_session_quota: '1' };
    const refused: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: ORIGIN, 'sec-fetch-site': 'same-site' },
      {},
    ];
    for (const headers of refused) {
      const res = await post(emu, '/settings', fields, cookie, headers);
      expect(res.status).toBe(403);
      expect(res.html).toContain('origin_not_allowed');
    }
    expect(emu.store.apps.get(DEMO.appId)).toEqual(before);
    expect((await post(emu, '/settings', fields, cookie, { 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    // Without the cookie an action is refused too.
    expect((await post(emu, '/keys/rotate', { env: 'test' }, '')).status).toBe(401);
  });

  it('escapes data: a host_user_ref and a webhook URL holding markup are shown as text', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const url = 'http://127.0.0.1:9/hooks?<script>alert(1)</script>';
    await setWebhookUrl(emu, url);
    const member = '<img src=x onerror="alert(2)">';
    scan(emu, member, 'scan_x');
    const pages = [await get(emu, '/settings', cookie), await get(emu, '/deliveries', cookie)];
    const id = emu.store.deliveryPages.page({ app_id: DEMO.appId, limit: 1 }).rows[0]!.id;
    pages.push(await get(emu, `/deliveries/${id}`, cookie));
    for (const { html } of pages) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
    }
    expect(pages[0]!.html).toContain('value="http://127.0.0.1:9/hooks?&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(pages[1]!.html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('Deliveries pages through 120 deliveries of one instant 50 at a time, newest first, none twice and none missed', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    await setWebhookUrl(emu, 'http://127.0.0.1:9/hooks');
    for (let i = 0; i < 120; i++) scan(emu, `member_${i}`, `scan_${i}`);
    const seen: string[] = [];
    let path: string | null = '/deliveries';
    const pages: string[] = [];
    while (path) {
      const { status, html } = await get(emu, path, cookie);
      expect(status).toBe(200);
      pages.push(html);
      seen.push(...[...html.matchAll(/<tr id="delivery-(del_\w+)"/g)].map((m) => m[1]!));
      path = /<a href="(\/deliveries\?before=[^"]+)">Older<\/a>/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;
    }
    expect(pages.length).toBe(3);
    expect(pages[0]).toContain('120 deliveries');
    expect(new Set(seen).size).toBe(120);
    expect(seen).toEqual(emu.store.webhooks.deliveries({ app_id: DEMO.appId, limit: 1000 }).map((d) => d.id));
    // Newer from the last page comes back to the rows before it.
    const newer = /<a href="(\/deliveries\?after=[^"]+)">Newer<\/a>/.exec(pages[2]!)![1]!;
    const back = await get(emu, newer, cookie);
    expect([...back.html.matchAll(/<tr id="delivery-(del_\w+)"/g)].map((m) => m[1])).toEqual(seen.slice(50, 100));
    const bad = await get(emu, '/deliveries?status=lost', cookie);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('id="filter-status-error"');
  });

  it("WH-9: the Clock page plays due retries; a bad duration is the API's error and moves nothing; the session outlives the move", async () => {
    const emu = testEmulator();
    emu.webhooks.attemptTimeoutMs = 2_000;
    const cookie = await signIn(emu);
    // Nothing listens on port 9: every attempt fails at once.
    await setWebhookUrl(emu, 'http://127.0.0.1:9/hooks');
    scan(emu, 'member_1', 'scan_1');
    await emu.advance(0);
    const now = emu.clock.now();
    const api = await emu.call('POST', '/_scanctl/clock/advance', { json: { duration: 'soon' } });
    expect(api.status).toBe(400);
    const bad = await post(emu, '/clock/advance', { duration: 'soon' }, cookie);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain(
      `<p class="error" id="advance-duration-error">${api.body.error.message} <code>${api.body.error.code}</code></p>`,
    );
    const back = await post(emu, '/clock/set', { time: '2000-01-01T00:00:00Z' }, cookie);
    expect(back.status).toBe(400);
    expect(back.html).toContain('clock_backwards');
    expect(emu.clock.now()).toBe(now);
    const moved = await post(emu, '/clock/advance', { duration: '50h' }, cookie);
    expect(moved.headers.get('location')).toBe('/clock?played=16&done=moved');
    expect(emu.clock.now()).toBe(now + 50 * 3_600_000);
    const [delivery] = emu.store.webhooks.deliveries({ app_id: DEMO.appId });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 17 });
    // 50 hours is past the portal session's 12: the developer who moved the clock stays signed in.
    const page = await get(emu, '/clock?played=16&done=moved', cookie);
    expect(page.status).toBe(200);
    expect(page.html).toContain('16 due timers');
    expect((await get(emu, '/deliveries', cookie)).html).toContain('<span class="status status-failed">failed</span>');
  });

  it("DEL-2: deleting a member's stored results from Scans goes through DELETE /v1/results' domain function", async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const empty = await post(emu, '/scans/delete-results', { host_user_ref: '' }, cookie);
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('parameter_missing');
    const res = await post(emu, '/scans/delete-results', { host_user_ref: 'member_1' }, cookie);
    expect(res.status).toBe(200);
    expect(res.html).toContain('Deleted 0 stored results of <code>member_1</code>');
  });

  it("the receiver's answer: the list and the delivery page show its status and the start of its body as sent, never quoted", async () => {
    const emu = testEmulator();
    const receiver = await startReceiver(DEMO.webhookSecret, () => ({ status: 500, body: '{"error":"database is locked"}' }));
    try {
      const cookie = await signIn(emu);
      await setWebhookUrl(emu, receiver.url);
      scan(emu, 'member_1', 'scan_1');
      await emu.advance(0);
      await receiver.waitFor(1);
      const [delivery] = emu.store.webhooks.deliveries({ app_id: DEMO.appId });
      const body = '<code class="answer-body">{&quot;error&quot;:&quot;database is locked&quot;}</code>';
      const list = (await get(emu, '/deliveries', cookie)).html;
      expect(list).toContain(`<td data-label="Receiver answered" class="wrap">500: ${body}</td>`);
      const page = (await get(emu, `/deliveries/${delivery!.id}`, cookie)).html;
      expect(page).toContain(`<td data-label="Answer or error" class="wrap mono">HTTP 500: ${body}</td>`);
      for (const html of [list, page]) expect(html).not.toContain('&quot;{');
    } finally {
      await receiver.close();
    }
  });

  it("WH-8, CHOICE-68: a send that webhook chaos --duplicate makes is shown as a send of its delivery's attempt, marked; the list keeps the first answer", async () => {
    const emu = testEmulator();
    let sends = 0;
    const receiver = await startReceiver(DEMO.webhookSecret, () =>
      (sends += 1) === 1 ? { status: 200, body: 'first' } : { status: 409, body: 'again' },
    );
    try {
      const cookie = await signIn(emu);
      await setWebhookUrl(emu, receiver.url);
      expect((await emu.call('PUT', `/_scanctl/apps/${DEMO.appId}/chaos`, { json: { duplicate: 1, seed: 1 } })).status).toBe(200);
      scan(emu, 'member_1', 'scan_1');
      await emu.advance(0);
      await receiver.waitFor(2);
      const [delivery] = emu.store.webhooks.deliveries({ app_id: DEMO.appId });
      const detail = (await emu.call('GET', `/_scanctl/webhooks/deliveries/${delivery!.id}`)).body as {
        status: string;
        attempts: number;
        attempt_log: Array<{ number: number; status: number; duplicate_send: boolean; response_excerpt: string }>;
      };
      expect(detail).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(detail.attempt_log.map((a) => [a.number, a.status, a.duplicate_send, a.response_excerpt])).toEqual([
        [1, 200, false, 'first'],
        [1, 409, true, 'again'],
      ]);
      const page = (await get(emu, `/deliveries/${delivery!.id}`, cookie)).html;
      expect(page).toContain('<td data-label="#">1<span class="muted"> duplicate send</span></td>');
      expect(page).toContain('<code class="answer-body">again</code>');
      const list = (await get(emu, '/deliveries', cookie)).html;
      expect(list).toContain('200: <code class="answer-body">first</code>');
      // The list marks the delivery: one attempt, with a duplicate send of it.
      expect(list).toContain('1/17<span class="badge">+1 duplicate send</span>');
      expect(list).toContain(`<td data-label="Member" class="clip" title="member_1"><span class="clip-value">member_1</span></td>`);
    } finally {
      await receiver.close();
    }
  });

  it('CHOICE-8: revoking a key (final) asks first; only the confirmed post revokes', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const key = emu.store.keys.forApp(DEMO.appId).find((k) => k.env === 'test' && k.kind === 'secret')!;
    const asked = await post(emu, '/keys/revoke', { key_id: key.id }, cookie);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('This is final: the key stops working at once and cannot be reinstated.');
    expect(asked.html).toContain('<input type="hidden" name="confirm" value="yes"/>');
    expect((await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } })).status).toBe(201);
    const done = await post(emu, '/keys/revoke', { key_id: key.id, confirm: 'yes' }, cookie);
    expect(done.status).toBe(303);
    const refused = await emu.call('POST', '/v1/sessions', { key: DEMO.testSecret, json: { host_user_ref: 'm' } });
    expect(refused.body.error.code).toBe('key_revoked');
  });

  it('the Clock page says how far the clock is from real time as the CLI does (6d7h2m10s, not seconds)', async () => {
    const emu = testEmulator();
    const cookie = await signIn(emu);
    const ahead = ((6 * 24 + 7) * 60 + 2) * 60_000 + 10_000;
    // The machine's time, fixed: the emulator's clock is ahead of it by 6d7h2m10s.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(emu.clock.now() - ahead);
      const html = (await get(emu, '/clock', cookie)).html;
      expect(html).toMatch(/<dt>From real time<\/dt>\s*<dd>real time \+ 6d7h2m10s<\/dd>/);
    } finally {
      vi.useRealTimers();
    }
  });
});
