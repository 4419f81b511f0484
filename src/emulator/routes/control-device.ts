import { Hono } from 'hono';
import { CONTROL_PREFIX } from '../../contract/control.js';
import { ScanListQuery, UsageQuery } from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { usage } from '../domain/billing.js';
import { installationView } from '../domain/device.js';
import { scanView } from '../domain/scans.js';
import { readQuery } from '../validate.js';

/** Control plane for the device side: installations (list, block, unblock), scans, usage. */
export function controlDeviceRoutes(ctx: EmulatorContext) {
  const { store } = ctx;
  const app = (id: string) => {
    const row = store.apps.get(id);
    if (!row) throw new ApiError('resource_missing', `No app ${id.slice(0, 100)}.`, 'app_id');
    return row;
  };
  const installation = (id: string) => {
    const row = store.device.installation(id);
    if (!row) throw new ApiError('resource_missing', `No installation ${id.slice(0, 100)}.`, 'installation_id');
    return row;
  };

  return new Hono<AppEnv>()
    .basePath(CONTROL_PREFIX)
    .get('/apps/:app_id/installations', (c) => {
      const row = app(c.req.param('app_id'));
      return c.json({ object: 'list', data: store.device.installationsForApp(row.id).map(installationView) });
    })
    .get('/installations/:installation_id', (c) => c.json(installationView(installation(c.req.param('installation_id')))))
    .post('/installations/:installation_id/:action{block|unblock}', (c) => {
      // DEV-3: a blocked installation's next scan fails to start.
      const row = installation(c.req.param('installation_id'));
      store.device.setBlocked(row.id, c.req.param('action') === 'block', ctx.clock.now());
      return c.json(installationView(store.device.installation(row.id)!));
    })
    .get('/apps/:app_id/scans', (c) => {
      const row = app(c.req.param('app_id'));
      const query = readQuery(c, ScanListQuery);
      const rows = store.device.listScans(row.id, query.host_user_ref ?? null, query.limit ?? 100);
      return c.json({ object: 'list', data: rows.map((r) => scanView(r)) });
    })
    .get('/usage', (c) => {
      const query = readQuery(c, UsageQuery);
      if (query.app_id) app(query.app_id);
      return c.json({ object: 'list', data: usage(store, query.app_id ?? null, query.month ?? null) });
    });
}
