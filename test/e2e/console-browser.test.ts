import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  launchChromium,
  NO_CHROMIUM,
  screenshot,
  seriousA11yViolations,
  startConsoleServer,
  type ConsoleServer,
} from '../helpers/browser.js';
import { DEMO, portalCookie } from '../helpers/emulator.js';
import { playScans } from '../helpers/scans.js';
import { startReceiver, type Behaviour } from '../helpers/webhook-receiver.js';

const PAGES = ['Deliveries', 'Settings', 'Keys', 'Scans', 'Usage', 'Clock', 'Installations'] as const;

const describeBrowser = CHROMIUM ? describe : describe.skip;

describeBrowser(CHROMIUM ? 'web console in Chromium' : `web console in Chromium (${NO_CHROMIUM})`, () => {
  let browser: Browser;
  const cleanups: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(): Promise<ConsoleServer> {
    const s = await startConsoleServer();
    cleanups.push(() => s.close());
    return s;
  }
  async function receiver(behaviour?: Behaviour) {
    const r = await startReceiver(DEMO.webhookSecret, behaviour);
    cleanups.push(() => r.close());
    return r;
  }
  async function webhookUrl(s: ConsoleServer, url: string, appId: string = DEMO.appId, accountId: string = DEMO.accountId) {
    const res = await s.emu.call('PATCH', `/v1/apps/${appId}`, {
      headers: { cookie: await portalCookie(s.emu, accountId) },
      json: { webhook_url: url },
    });
    expect(res.status).toBe(200);
  }
  async function context(options: { width?: number; height?: number; bypassCSP?: boolean } = {}): Promise<BrowserContext> {
    const ctx = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
      bypassCSP: options.bypassCSP ?? false,
    });
    ctx.setDefaultTimeout(10_000);
    cleanups.push(() => ctx.close());
    return ctx;
  }
  /** Signs in with the sign-in page's one button for the account; returns the page on Deliveries. */
  async function signedIn(s: ConsoleServer, ctx: BrowserContext, accountId: string = DEMO.accountId): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(`${s.url}/`);
    await page.getByRole('button', { name: `Sign in as ${accountId}` }).click();
    await page.waitForURL(`${s.url}/deliveries`);
    return page;
  }

  it('CHOICE-6: one-click sign-in; every page by its link, accessible (axe) at 1280x800 and at phone width; sign out', async () => {
    const s = await server();
    const r = await receiver();
    await webhookUrl(s, r.url);
    await playScans(s.url, 2, 'member_1');
    await r.waitFor(2);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(`${s.url}/settings`);
    expect(page.url()).toBe(`${s.url}/sign-in?next=%2Fsettings`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in as acct_demo' }).click();
    await page.waitForURL(`${s.url}/settings`);
    const [cookie] = await ctx.cookies();
    expect(cookie).toMatchObject({ name: 'scanctl_portal', httpOnly: true, sameSite: 'Strict', path: '/' });
    for (const name of PAGES) {
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents()).toEqual([...PAGES]);
      expect(await seriousA11yViolations(page), name).toEqual([]);
      if (name === 'Settings' || name === 'Clock') await screenshot(page, name.toLowerCase());
    }
    await page.getByRole('link', { name: 'Deliveries', exact: true }).click();
    await page.locator('#deliveries-rows a').first().click();
    await page.getByRole('heading', { name: 'Attempts' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'delivery');

    const phone = await context({ width: 375, height: 740 });
    const small = await signedIn(s, phone);
    for (const name of [...PAGES].reverse()) {
      await small.goto(`${s.url}/${name.toLowerCase()}`);
      const overflow = await small.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
      expect(await seriousA11yViolations(small), name).toEqual([]);
    }
    await screenshot(small, 'phone-deliveries');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${s.url}/sign-in?done=signed-out`);
    await page.goto(`${s.url}/keys`);
    expect(page.url()).toBe(`${s.url}/sign-in?next=%2Fkeys`);
  }, 90_000);

  it("APP-2: saving settings by keyboard: a bad URL gets the API's error beside the field and saves nothing; a good one issues the secret once", async () => {
    const s = await server();
    const page = await signedIn(s, await context(), 'acct_trial');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const url = page.getByLabel('Webhook URL');
    await url.fill('not a url');
    await url.press('Enter');
    await page.locator('#settings-webhook_url-error').waitFor();
    expect(await page.locator('#settings-webhook_url-error').textContent()).toContain('parameter_invalid');
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(s.emu.store.apps.get('app_trial')!.webhook_url).toBeNull();
    await url.fill('http://127.0.0.1:9/hooks');
    await page.getByLabel('Results delivery').check();
    await page.getByLabel('Daily session quota').fill('25');
    await page.getByRole('button', { name: 'Save' }).press('Enter');
    const secret = await page.getByLabel('Webhook signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(s.emu.store.apps.get('app_trial')).toMatchObject({
      webhook_url: 'http://127.0.0.1:9/hooks',
      results_delivery_enabled: 1,
      daily_session_quota: 25,
    });
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await page.getByText(`whsec_...${secret.slice(-4)}`).waitFor();
  });

  it("AUTH-8: rotating a key: the new secret once, the old key's grace as a countdown, both keys mint", async () => {
    const s = await server();
    const page = await signedIn(s, await context());
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('button', { name: 'Rotate test secret key' }).click();
    const secret = await page.getByLabel('New test secret key').inputValue();
    expect(secret).toMatch(/^sk_test_/);
    await page.getByText('grace ends').getByText('(in 1d)').waitFor();
    for (const key of [secret, DEMO.testSecret])
      expect((await s.emu.call('POST', '/v1/sessions', { key, json: { host_user_ref: 'm' } })).status).toBe(201);
    await screenshot(page, 'keys');
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    expect(await page.content()).not.toContain(secret);
  });

  it('WH-9: a delivery appears live without a reload, its retries follow a clock advance, and Resend sends the same event again', async () => {
    const s = await server();
    const r = await receiver((n) => (n <= 2 ? 500 : 200));
    await webhookUrl(s, r.url);
    const ctx = await context();
    const list = await signedIn(s, ctx);
    await list.getByText('Live: updates as deliveries happen.').waitFor();
    await list.evaluate('window.notReloaded = true');
    await playScans(s.url, 1, 'member_live');
    const row = list.locator('#deliveries-rows tr', { hasText: 'member_live' });
    await row.filter({ hasText: '1/17' }).filter({ hasText: 'pending' }).waitFor();
    expect(await row.textContent()).toContain('500');
    await list.locator('#deliveries-total', { hasText: '1 delivery' }).waitFor();

    const clock = await ctx.newPage();
    await clock.goto(`${s.url}/clock`);
    for (const [duration, attempt] of [
      ['30s', '2/17'],
      ['1m', '3/17'],
    ] as const) {
      await clock.getByLabel('Advance by').fill(duration);
      await clock.getByRole('button', { name: 'Advance' }).click();
      await clock.getByText('Clock moved; 1 due timer').waitFor();
      await row.filter({ hasText: attempt }).waitFor();
    }
    await row.filter({ hasText: 'succeeded' }).waitFor();
    expect(await list.evaluate('window.notReloaded')).toBe(true);
    await screenshot(list, 'deliveries');

    await row.getByRole('link').click();
    const attempts = list.getByRole('region', { name: 'Attempts' }).locator('tbody tr');
    expect(await attempts.locator('td[data-label="Receiver status"]').allTextContents()).toEqual(['500', '500', '200']);
    await list.getByRole('button', { name: /^Resend event/ }).click();
    await list.getByText('Resent: a new delivery of the same event').waitFor();
    const received = await r.waitFor(4);
    expect(received[3]!.headers['service-event-id']).toBe(received[0]!.headers['service-event-id']);
    expect(received[3]!.raw.equals(received[0]!.raw)).toBe(true);
  });

  it('WH-8, CHOICE-68: at 1300 px ids and members stay on one line, cut with an ellipsis, the whole value in their title; a duplicate send is listed as a send of its delivery, marked', async () => {
    const s = await server();
    const r = await receiver();
    await webhookUrl(s, r.url);
    expect((await s.emu.call('PUT', `/_scanctl/apps/${DEMO.appId}/chaos`, { json: { duplicate: 1, seed: 1 } })).status).toBe(200);
    const member = `member_${'averyveryverylongname'.repeat(4)}`;
    const [scanId] = await playScans(s.url, 1, member);
    await r.waitFor(2); // the same bytes twice: the first send and its duplicate
    const page = await signedIn(s, await context({ width: 1300, height: 800 }));
    const deliveryId = s.emu.store.webhooks.deliveries({ app_id: DEMO.appId })[0]!.id;

    /** Each cell's title, whether its text is on one line (one line box), cut (wider than the cell) and how. */
    // An expression evaluated in the page (this project's types have no DOM).
    const cells = (selector: string) =>
      page.evaluate<Array<{ title: string | null; lines: number; cut: boolean; style: string[] }>>(
        `[...document.querySelectorAll(${JSON.stringify(selector)})].map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          const style = getComputedStyle(td);
          return {
            title: td.getAttribute('title'),
            lines: tops.size,
            cut: td.scrollWidth > td.clientWidth,
            style: [style.whiteSpace, style.overflow, style.textOverflow],
          };
        })`,
      );
    const clipped = ['nowrap', 'hidden', 'ellipsis'];
    const row = '#deliveries-rows tr';
    expect(await cells(`${row} td[data-label="Member"]`)).toEqual([{ title: member, lines: 1, cut: true, style: clipped }]);
    expect(await cells(`${row} td[data-label="Delivery"]`)).toEqual([{ title: deliveryId, lines: 1, cut: false, style: clipped }]);
    expect(await page.locator(`${row} td[data-label="Attempt"]`).textContent()).toBe('1/17+1 duplicate send');

    await page.goto(`${s.url}/scans`);
    expect(await cells('td[data-label="Member"]')).toEqual([{ title: member, lines: 1, cut: true, style: clipped }]);
    expect(await cells('td[data-label="Scan"]')).toEqual([{ title: scanId, lines: 1, cut: false, style: clipped }]);
    expect((await cells('td[data-label="Installation"]')).map((c) => [c.lines, c.style])).toEqual([[1, clipped]]);

    // The delivery's page: one attempt, and the second send of it marked, with its own answer.
    await page.goto(`${s.url}/deliveries/${deliveryId}`);
    const attempts = page.getByRole('region', { name: 'Attempts' }).locator('tbody tr');
    expect(await attempts.locator('td[data-label="#"]').allTextContents()).toEqual(['1', '1 duplicate send']);
    expect(await attempts.locator('td[data-label="Receiver status"]').allTextContents()).toEqual(['200', '200']);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('escaping: markup in a host_user_ref and in a webhook URL is shown as text on every page, and nothing runs (CSP bypassed)', async () => {
    const s = await server();
    const hostileUrl = 'http://127.0.0.1:9/hooks?<script>window.pwned=1</script>';
    const hostileMember = '<img src=x onerror="window.pwned=2">';
    await webhookUrl(s, hostileUrl);
    await playScans(s.url, 1, hostileMember);
    const ctx = await context({ bypassCSP: true });
    const page = await signedIn(s, ctx);
    page.on('dialog', () => {
      throw new Error('a dialog opened');
    });
    const deliveryId = s.emu.store.webhooks.deliveries({ app_id: DEMO.appId })[0]!.id;
    for (const path of ['/settings', '/deliveries', `/deliveries/${deliveryId}`, '/scans']) {
      await page.goto(`${s.url}${path}`);
      expect(await page.evaluate('window.pwned'), path).toBeUndefined();
      expect(await page.locator('img[src="x"], main script').count(), path).toBe(0);
    }
    await page.getByRole('cell', { name: hostileMember }).first().waitFor();
    await page.goto(`${s.url}/settings`);
    expect(await page.getByLabel('Webhook URL').inputValue()).toBe(hostileUrl);
    await page.goto(`${s.url}/deliveries`);
    await page.getByRole('cell', { name: hostileMember }).waitFor();
  });

  it('a cross-site form post is refused and changes nothing', async () => {
    const s = await server();
    const ctx = await context();
    await signedIn(s, ctx);
    const before = s.emu.store.apps.get(DEMO.appId);
    const evil = http.createServer((_, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<form method="post" action="${s.url}/settings"><input name="webhook_url" value="http://evil.example/"><input name="daily_session_quota" value="1"></form><script>document.forms[0].submit()</script>`,
        );
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => evil.close(resolve)));
    const page = await ctx.newPage();
    const answer = page.waitForResponse((res) => res.url() === `${s.url}/settings` && res.request().method() === 'POST');
    // localhost and 127.0.0.1 are different sites.
    await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
    expect((await answer).status()).toBe(403);
    await page.getByText('origin_not_allowed').waitFor();
    expect(s.emu.store.apps.get(DEMO.appId)).toEqual(before);
  });
});
