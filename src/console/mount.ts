import type { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../emulator/context.js';

/** The console's pages (GET) and actions (POST); every other path and method stays the API's. */
const PAGES = /^\/(?:|sign-in|settings|keys|scans|usage|clock|installations|deliveries|deliveries\/[^/]+|console\/[\w.-]+)$/;
const ACTIONS =
  /^\/(?:sign-in|sign-out|settings|keys\/[a-z]+|scans\/delete-results|clock\/(?:advance|set)|deliveries\/[^/]+\/resend|installations\/[^/]+\/(?:block|unblock))$/;

function isConsoleRequest(method: string, path: string): boolean {
  return method === 'POST' ? ACTIONS.test(path) : (method === 'GET' || method === 'HEAD') && PAGES.test(path);
}

/**
 * Mounts the web console at the emulator's root, `/`, after the API's routes. Its code (pages,
 * hono/jsx) is imported on the first console request: `scanctl serve` and `--version` never load it.
 */
export function mountConsole(app: Hono<AppEnv>, ctx: EmulatorContext): void {
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
