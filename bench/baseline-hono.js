// The same-run baseline of the sessions benchmark: a bare hono JSON route on @hono/node-server,
// reading a JSON body and answering 201 JSON, nothing else. Prints its URL, then serves (on PORT, or
// a free port).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.post('/v1/sessions', async (c) => {
  const body = await c.req.json();
  return c.json({ session_token: `vst_${String(body.host_user_ref)}`, expires_at: new Date().toISOString() }, 201);
});
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`http://127.0.0.1:${info.port}\n`);
});
server.keepAliveTimeout = 5_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
