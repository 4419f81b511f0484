import type { MiddlewareHandler } from 'hono';
import { LOOPBACK_HOST_NAMES } from '../../contract/choices.js';
import { ApiError } from '../../contract/errors.js';
import { originCheckExempt } from '../../contract/origin.js';
import type { EmulatorConfig } from '../config.js';
import type { AppEnv } from './app-env.js';

/**
 * The emulator trusts the loopback user and nobody else (docs/security.md). Two checks run before
 * any route, so every route registered now or later is covered:
 *
 * - Host: a page can rebind its own name to 127.0.0.1 (DNS rebinding) and then talk to the emulator
 *   as "its" server; the Host header still carries the page's name, so only loopback names with the
 *   emulator's port, and the names the developer allowed, get through.
 * - Origin: a page on another origin can send simple requests (form posts) without rebinding. Every
 *   route but the backend and device routes (which a browser never calls and which need a key or a
 *   token) refuses a present Origin that is not the emulator's own, and Sec-Fetch-Site: cross-site.
 *
 * No route ever answers with CORS headers, so no other origin can read an answer either.
 */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(LOOPBACK_HOST_NAMES);

export interface HostPolicy {
  /** The port the emulator listens on; null in-process (app.request), where any port is loopback's. */
  port: number | null;
  /** Extra names: `name` admits it on any port, `name:port` on that port only. */
  allowedHosts: readonly string[];
}

/** Splits a Host header value into its lowercase name and port (null when absent); null when malformed. */
function splitHost(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? null : Number(match[2]) };
}

/** True when `host` (a Host header value, or an Origin's host) names this emulator. */
export function hostAllowed(host: string, policy: HostPolicy): boolean {
  const parsed = splitHost(host);
  if (!parsed) return false;
  if (LOOPBACK_NAMES.has(parsed.name)) {
    // A Host without a port means port 80; in-process there is no port to compare.
    return policy.port === null || (parsed.port ?? 80) === policy.port;
  }
  return policy.allowedHosts.some((entry) => {
    const allowed = splitHost(entry);
    if (!allowed || allowed.name !== parsed.name) return false;
    return allowed.port === null || allowed.port === (parsed.port ?? 80);
  });
}

export function hostGuard(config: Pick<EmulatorConfig, 'port' | 'allowedHosts'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Through a socket the Host header is the name the client used; app.request() has only its URL.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const policy = { port: config.port, allowedHosts: config.allowedHosts };
    if (!hostAllowed(host, policy)) {
      throw new ApiError(
        'host_not_allowed',
        `Host ${JSON.stringify(host.slice(0, 100))} is not allowed: the emulator answers loopback names (localhost, 127.0.0.1, [::1]) ` +
          'on its own port only. To admit another name, start it with `scanctl serve --allowed-host NAME` (or SCANCTL_ALLOWED_HOSTS=NAME,...).',
      );
    }
    if (!originCheckExempt(c.req.path)) {
      const origin = c.req.header('origin');
      if (origin !== undefined && !sameEmulator(origin, policy)) {
        throw new ApiError(
          'origin_not_allowed',
          `Requests from origin ${JSON.stringify(origin.slice(0, 100))} are refused: only the emulator's own pages and local tools may call this route.`,
        );
      }
      if (c.req.header('sec-fetch-site')?.toLowerCase() === 'cross-site') {
        throw new ApiError(
          'origin_not_allowed',
          "Cross-site requests are refused: only the emulator's own pages and local tools may call this route.",
        );
      }
    }
    await next();
  };
}

/** An Origin is the emulator's own when it is http(s) on a host the Host check admits. */
function sameEmulator(origin: string, policy: HostPolicy): boolean {
  const match = /^https?:\/\/([^/]+)$/i.exec(origin.trim());
  return match !== null && hostAllowed(match[1]!, policy);
}
