import { createAdaptorServer } from '@hono/node-server';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { testEmulator, type TestEmulator } from './emulator.js';

/** Debian's chromium, by SCANCTL_CHROMIUM or on PATH; null when neither has it. */
export function findChromium(): string | null {
  const named = process.env.SCANCTL_CHROMIUM;
  if (named) return existsSync(named) ? named : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return null;
}

export const CHROMIUM = findChromium();
/** Shown in the skipped tests' title when Chromium is missing. */
export const NO_CHROMIUM =
  'skipped: no Chromium (set SCANCTL_CHROMIUM or put chromium on PATH; install it with: apt-get install -y chromium)';
if (!CHROMIUM) process.stderr.write(`scanctl browser tests ${NO_CHROMIUM}\n`);

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // playwright-core gives every launch a fresh temporary profile (user-data-dir) and removes it on close.
  return chromium.launch({
    executablePath: CHROMIUM!,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsoleServer {
  emu: TestEmulator;
  url: string;
  close(): Promise<void>;
}

/**
 * The emulator on a loopback port with its webhook dispatcher running, in this process, on a
 * frozen virtual clock: time moves only when a test (or the Clock page) moves it.
 */
export async function startConsoleServer(): Promise<ConsoleServer> {
  const emu = testEmulator();
  const server = createAdaptorServer({ fetch: emu.app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emu.webhooks.start();
  return {
    emu,
    url,
    async close() {
      await emu.webhooks.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      emu.store.db.close();
    },
  };
}

const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/** axe-core in the page (evaluated through the devtools protocol, so the page's CSP stays on); serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.evaluate(`${readFileSync(AXE, 'utf8')}\n;0`);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe;
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** With SCANCTL_UPDATE_SCREENSHOTS=1 the tests refresh docs/console/*.png; otherwise they take none. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCANCTL_UPDATE_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../../docs/console/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}
