import { CHOICES } from '../../contract/choices.js';
import { ApiError } from '../../contract/errors.js';
import type { PortalSessionRow } from '../../store/tables/portal-sessions.js';
import { sha256Hex } from '../../util/crypto.js';
import type { StateContext } from './state-context.js';

/** The portal's cookie (CHOICE-6): HttpOnly, SameSite=Strict; only its hash is stored. */
export const PORTAL_COOKIE = 'scanctl_portal';
export const PORTAL_COOKIE_OPTIONS = { httpOnly: true, path: '/', sameSite: 'Strict' } as const;

/** Signs a developer in to the portal as an account; returns the cookie's value and when it expires (virtual clock). */
export function startPortalSession(ctx: StateContext, accountId: string): { cookie: string; expiresAt: number } {
  if (!ctx.store.accounts.get(accountId)) throw new ApiError('resource_missing', `No account ${accountId.slice(0, 100)}.`, 'account_id');
  const cookie = ctx.ids.secret('psess_');
  const now = ctx.clock.now();
  const expiresAt = now + CHOICES.portalSessionLifetimeMs;
  ctx.store.portalSessions.insert({ hash: sha256Hex(cookie), account_id: accountId, created_at: now, expires_at: expiresAt });
  return { cookie, expiresAt };
}

/** The portal session a cookie names, while it is valid on the emulator's clock. */
export function portalSessionOf(ctx: StateContext, cookie: string | undefined): PortalSessionRow | undefined {
  const session = cookie ? ctx.store.portalSessions.byHash(sha256Hex(cookie)) : undefined;
  return session && session.expires_at > ctx.clock.now() ? session : undefined;
}

/** Signs out: the cookie stops working at once. */
export function endPortalSession(ctx: StateContext, cookie: string): void {
  ctx.store.portalSessions.delete(sha256Hex(cookie));
}

/** A full lifetime again from now (the developer moved the clock past it from the console). */
export function renewPortalSession(ctx: StateContext, cookie: string): void {
  ctx.store.portalSessions.extend(sha256Hex(cookie), ctx.clock.now() + CHOICES.portalSessionLifetimeMs);
}
