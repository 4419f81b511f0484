import type { Hono } from 'hono';
import type { AppEnv } from '../emulator/http/app-env.js';
import type { ConsoleContext } from './context.js';

/** The console's pages (GET) and actions (POST), `:name` for one path segment; every other path and method stays the API's. */
const CONSOLE_ROUTES = {
  GET: [
    '/',
    '/sign-in',
    '/settings',
    '/keys',
    '/scans',
    '/usage',
    '/clock',
    '/installations',
    '/deliveries',
    '/deliveries/:id',
    '/console/:asset',
  ],
  POST: [
    '/sign-in',
    '/sign-out',
    '/settings',
    '/keys/:action',
    '/scans/delete-results',
    '/clock/advance',
    '/clock/set',
    '/deliveries/:id/resend',
    '/installations/:id/block',
    '/installations/:id/unblock',
  ],
} as const;

/** One anchored pattern for a list of routes. */
function matcher(routes: readonly string[]): RegExp {
  const alternatives = routes.map((route) => route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+'));
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}

const PAGES = matcher(CONSOLE_ROUTES.GET);
const ACTIONS = matcher(CONSOLE_ROUTES.POST);

function isConsoleRequest(method: string, path: string): boolean {
  return method === 'POST' ? ACTIONS.test(path) : (method === 'GET' || method === 'HEAD') && PAGES.test(path);
}

/**
 * Mounts the web console at the emulator's root, `/`, after the API's routes. Its code (pages,
 * hono/jsx) is imported on the first console request: `scanctl serve` and `--version` never load it.
 */
export function mountConsole(app: Hono<AppEnv>, ctx: ConsoleContext): void {
  let loaded: Promise<(request: Request) => Response | Promise<Response>> | null = null;
  const load = () =>
    (loaded ??= import('./app.js').then(({ createConsoleApp }) => {
      const consoleApp = createConsoleApp(ctx);
      return (request: Request) => consoleApp.fetch(request);
    }));
  app.use('*', async (c, next) => {
    if (!isConsoleRequest(c.req.method, c.req.path)) return next();
    return (await load())(c.req.raw);
  });
}
