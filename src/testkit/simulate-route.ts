import type { Hono } from 'hono';
import { ApiError } from '../contract/errors.js';
import { OPS } from '../contract/operations/index.js';
import type { AppEnv, EmulatorContext } from '../emulator/context.js';
import { implement, mountRoutes } from '../emulator/http/implement.js';
import { fixtureKeys } from '../emulator/seed.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * `POST /_scanctl/apps/{app_id}/scans/simulate`: the simulated SDK run by the emulator itself,
 * through its own routes (in process, never a socket), then `webhook wait`'s wait. A face of the
 * emulator handed in by whoever starts it (serve, startEmulator), since the SDK sits above the
 * emulator; its code loads on the first call.
 */
export function mountSimulateRoute(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  const local = (input: string | URL | Request, init?: RequestInit) => Promise.resolve(app.fetch(new Request(input, init)));
  const route = implement(OPS.simulateScan)(async ({ c, app: row, body }) => {
    let secretKey: string | null = null;
    try {
      secretKey = fixtureKeys(ctx, row.id).test?.secret ?? null;
    } catch {
      // The fixture file no longer reads: no key to mint with.
    }
    if (!secretKey) throw new ApiError('parameter_invalid', `The fixtures give ${row.id} no test secret key to mint with.`, 'app_id');
    const [{ ControlClient }, { simulateScans }, { waitForDeliveries, attemptLogs, waitResultOf }] = await Promise.all([
      import('../client/control.js'),
      import('./simulate-scan.js'),
      import('../client/wait.js'),
    ]);
    const control = new ControlClient(new URL(c.req.url).origin, local);
    const outcome = body.outcome ?? 'completed';
    const [scan] = await simulateScans(control, { appId: row.id, secretKey }, 1, { user: body.host_user_ref, outcome }, local);
    if (body.wait === false || !scan!.scan_id) return { status: 201, body: { object: 'simulated_scan_run', scan: scan!, wait: null } };
    const waited = await waitForDeliveries(control, {
      appId: row.id,
      scanIds: [scan!.scan_id],
      playRetries: Boolean(body.play_retries),
      timeoutMs: body.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      pollMs: 10,
    });
    const wait = waitResultOf(waited, 'acknowledged', await attemptLogs(control, waited.deliveries));
    return { status: 201, body: { object: 'simulated_scan_run', scan: scan!, wait } };
  });
  mountRoutes(app, ctx, [route]);
}
