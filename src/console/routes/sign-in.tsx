/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { PortalLoginRequest } from '../../contract/control.js';
import type { ConsoleContext } from '../context.js';
import { endPortalSession, PORTAL_COOKIE, PORTAL_COOKIE_OPTIONS, startPortalSession } from '../../emulator/domain/portal-sessions.js';
import { parseWith } from '../../contract/request-errors.js';
import type { ConsoleEnv } from '../env.js';
import { attempt, readForm } from '../form.js';
import { SignInPage } from '../pages/sign-in.js';
import { renderPage } from '../render.js';

/** Only a path of this site: never `//elsewhere` or a full URL. */
function localPath(next: string | undefined): string {
  return next && /^\/(?![/\\])/.test(next) ? next : '/deliveries';
}

/** Sign in (the portal login, CHOICE-6) and sign out. */
export function signInRoutes(ctx: ConsoleContext) {
  const accounts = () => {
    const apps = ctx.store.apps.all();
    const first = apps.find((a) => a.id === ctx.config.defaultAppId)?.account_id;
    return ctx.store.accounts
      .all()
      .map((a) => ({
        id: a.id,
        suspended: a.suspended === 1,
        apps: apps.filter((p) => p.account_id === a.id).map((p) => `${p.name} (${p.id})`),
      }))
      .sort((a, b) => Number(b.id === first) - Number(a.id === first));
  };
  return new Hono<ConsoleEnv>()
    .get('/sign-in', (c) =>
      renderPage(
        c,
        <SignInPage accounts={accounts()} next={localPath(c.req.query('next'))} signedOut={c.req.query('done') === 'signed-out'} />,
      ),
    )
    .post('/sign-in', async (c) => {
      const form = await readForm(c);
      const result = await attempt('sign-in', () =>
        startPortalSession(ctx, parseWith(PortalLoginRequest, { account_id: form.account_id }).account_id),
      );
      if (!result.ok)
        return renderPage(
          c,
          <SignInPage accounts={accounts()} next={localPath(form.next)} failure={result.failure} />,
          result.failure.status,
        );
      setCookie(c, PORTAL_COOKIE, result.value.cookie, PORTAL_COOKIE_OPTIONS);
      return c.redirect(localPath(form.next), 303);
    })
    .post('/sign-out', (c) => {
      const cookie = getCookie(c, PORTAL_COOKIE);
      if (cookie) endPortalSession(ctx, cookie);
      deleteCookie(c, PORTAL_COOKIE, { path: '/' });
      return c.redirect('/sign-in?done=signed-out', 303);
    });
}
