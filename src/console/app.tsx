/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { toApiError } from '../emulator/http/fallbacks.js';
import type { ConsoleContext } from './context.js';
import { CONSOLE_CSS, CONSOLE_ICON, CONSOLE_JS } from './assets.js';
import type { ConsoleEnv } from './env.js';
import { ErrorPage } from './pages/sign-in.js';
import { renderPage, securityHeaders } from './render.js';
import { clockRoutes } from './routes/clock.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { keyRoutes } from './routes/keys.js';
import { scanRoutes } from './routes/scans.js';
import { settingsRoutes } from './routes/settings.js';
import { signInRoutes } from './routes/sign-in.js';
import { requireSignIn, sameOriginPosts } from './session.js';

/**
 * The web console: the emulated portal's pages, HTML that works without script. Every action calls
 * the same domain functions and zod schemas as the API, so a refusal is the API's own error, shown
 * beside the field it names.
 */
export function createConsoleApp(ctx: ConsoleContext): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use('*', securityHeaders());
  app.get('/console/console.css', (c) =>
    c.body(CONSOLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  app.get('/console/console.js', (c) =>
    c.body(CONSOLE_JS, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  app.get('/console/icon.svg', (c) => c.body(CONSOLE_ICON, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' }));
  app.use('*', sameOriginPosts());
  app.use('*', requireSignIn(ctx));
  app.get('/', (c) => c.redirect('/deliveries', 303));
  app.route('/', signInRoutes(ctx));
  app.route('/', deliveryRoutes(ctx));
  app.route('/', settingsRoutes(ctx));
  app.route('/', keyRoutes(ctx));
  app.route('/', scanRoutes(ctx));
  app.route('/', clockRoutes(ctx));
  app.notFound((c) =>
    renderPage(
      c,
      <ErrorPage
        status={404}
        code="route_not_found"
        message={`No console page ${c.req.method} ${c.req.path.slice(0, 200)}.`}
        signedIn={false}
      />,
      404,
    ),
  );
  app.onError((error, c) => {
    const apiError = toApiError(error, ctx.logger);
    const signedIn = c.get('developer') !== undefined;
    return renderPage(
      c,
      <ErrorPage status={apiError.status} code={apiError.code} message={apiError.message} signedIn={signedIn} />,
      apiError.status,
    );
  });
  return app;
}
