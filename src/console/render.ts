import type { Context, MiddlewareHandler } from 'hono';
import type { AppRow } from '../store/tables/apps.js';
import type { ConsoleEnv } from './env.js';

/**
 * Pages may run nothing but the console's own script and load nothing from elsewhere, so even a
 * value that escaped escaping could not run; no other site may frame them.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on the console's own posts.
  'Referrer-Policy': 'same-origin',
};

export function securityHeaders(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}

import { isContentfulStatus } from '../emulator/http/status.js';

/** The HTML of a hono/jsx element, which renders itself when turned into text. */
export function htmlOf(node: unknown): string {
  return String(node);
}

/** An HTML page (a hono/jsx element) with its status. */
export function renderPage(c: Context, page: unknown, status = 200): Response | Promise<Response> {
  const html = `<!doctype html>${htmlOf(page)}` as const;
  return isContentfulStatus(status) ? c.html(html, status) : c.html(html);
}

/** A console link that keeps the chosen app (`?app=` only when it is not the account's first). */
export function pageHref(
  path: string,
  app: AppRow | undefined,
  apps: readonly AppRow[],
  params: Record<string, string | undefined> = {},
): string {
  const search = new URLSearchParams();
  if (app && apps[0] && app.id !== apps[0].id) search.set('app', app.id);
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, value);
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Post-redirect-get: after a change, the page again with a notice (one of the page's own notice names). */
export function redirectDone(
  c: Context<ConsoleEnv>,
  path: string,
  done: string,
  params: Record<string, string | undefined> = {},
): Response {
  const { apps } = c.get('developer');
  return c.redirect(pageHref(path, c.get('app'), apps, { ...params, done }), 303);
}
