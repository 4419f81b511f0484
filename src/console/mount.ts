import type { Context, Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../emulator/context.js';

/**
 * The paths the web console answers (hono patterns). Registered on the emulator at start-up, but
 * the console's code (pages, hono/jsx) is imported only when one of them is first requested:
 * `scanctl serve` and `--version` never load it.
 */
export const CONSOLE_PATHS = [
  '/',
  '/sign-in',
  '/sign-out',
  '/deliveries',
  '/deliveries/*',
  '/settings',
  '/keys',
  '/keys/*',
  '/scans',
  '/scans/*',
  '/usage',
  '/clock',
  '/clock/*',
  '/installations',
  '/installations/*',
  '/console/*',
] as const;

type ConsoleFetch = (request: Request) => Response | Promise<Response>;

/** Mounts the console at the emulator's root, `/`. */
export function mountConsole(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  let loaded: Promise<ConsoleFetch> | null = null;
  const load = () =>
    (loaded ??= import('./app.js').then(({ createConsoleApp }) => {
      const consoleApp = createConsoleApp(ctx);
      return (request: Request) => consoleApp.fetch(request);
    }));
  const handler = async (c: Context<AppEnv>) => (await load())(c.req.raw);
  app.on(['GET', 'POST'], [...CONSOLE_PATHS], handler);
}
