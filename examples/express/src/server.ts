// `npm start`: the backend on PORT (default 3000), configured by the environment contract that
// `scanctl exec`, the CI action and the container image give (docs/environment.md).
import type { AddressInfo } from 'node:net';
import { createApp, memoryStore } from './app.ts';

const env = process.env;
const app = createApp({
  serviceUrl: env.SCANCTL_BASE_URL ?? 'http://127.0.0.1:7226',
  secretKey: env.SCANCTL_SECRET_KEY ?? '',
  webhookSecret: env.SCANCTL_WEBHOOK_SECRET,
  store: memoryStore(),
});
const server = app.listen(Number(env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`backend listening on http://127.0.0.1:${port} (webhooks: /webhooks)`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close());
