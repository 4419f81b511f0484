import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { emulatorRequestListener } from '../../../../src/emulator/http/node-server.js';
import { SILENT_LOGGER } from '../../../../src/util/logger.js';

/**
 * The emulator's request listener loads its HTTP adapter after the ready line: requests that come
 * before it has loaded wait for it and are answered, in order, each once.
 */
describe('the emulator request listener', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  async function listen(listener: Parameters<typeof createServer>[0] & object): Promise<string> {
    server = createServer(listener);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('answers requests that arrive before warm() (they wait for the adapter), then serves at once', async () => {
    const seen: string[] = [];
    const listener = emulatorRequestListener((request) => {
      seen.push(new URL(request.url).pathname);
      return new Response(JSON.stringify({ path: new URL(request.url).pathname }), { headers: { 'content-type': 'application/json' } });
    }, SILENT_LOGGER);
    const base = await listen(listener);
    const early = await Promise.all(['/a', '/b', '/c'].map((path) => fetch(`${base}${path}`).then((r) => r.json())));
    expect(early).toEqual([{ path: '/a' }, { path: '/b' }, { path: '/c' }]);
    await listener.warm();
    await listener.warm();
    expect(await (await fetch(`${base}/d`)).json()).toEqual({ path: '/d' });
    expect(seen.sort()).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('an error in the app is the spec error body, not a bare 500, and its details go to the host logger', async () => {
    const logged: unknown[] = [];
    const base = await listen(
      emulatorRequestListener(
        () => {
          throw new Error('boom');
        },
        { warn: () => undefined, info: () => undefined, error: (message, error) => logged.push([message, error]) },
      ),
    );
    const response = await fetch(`${base}/x`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'internal_error' } });
    expect(logged).toEqual([['internal error', expect.objectContaining({ message: 'boom' })]]);
  });
});
