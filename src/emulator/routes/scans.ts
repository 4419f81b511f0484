import { OPS } from '../../contract/operations/index.js';
import { usage } from '../domain/billing.js';
import { installationView } from '../domain/device.js';
import { scanView } from '../domain/scans.js';
import { implement } from '../http/implement.js';
import { requireApp } from '../http/loaders.js';

/** The device side's control plane: installations (DEV-3 block, unblock), recorded scans, usage (BILL-*). */
export const scanRoutes = [
  implement(OPS.listInstallations)(({ ctx, app }) => ({
    status: 200,
    body: { object: 'list', data: ctx.store.device.installationsForApp(app.id).map(installationView) },
  })),
  implement(OPS.getInstallation)(({ installation }) => ({ status: 200, body: installationView(installation) })),
  ...(['block', 'unblock'] as const).map((action) =>
    implement(action === 'block' ? OPS.blockInstallation : OPS.unblockInstallation)(({ ctx, installation }) => {
      // DEV-3: a blocked installation's next scan fails to start.
      ctx.store.device.setBlocked(installation.id, action === 'block', ctx.clock.now());
      return { status: 200, body: installationView(ctx.store.device.installation(installation.id)!) };
    }),
  ),
  implement(OPS.listScans)(({ ctx, app, query }) => {
    const rows = ctx.store.device.listScans(app.id, query.host_user_ref ?? null, query.limit ?? 100);
    return { status: 200, body: { object: 'list', data: rows.map((r) => scanView(r)) } };
  }),
  implement(OPS.getUsage)(({ ctx, query }) => {
    if (query.app_id) requireApp(ctx, query.app_id);
    return { status: 200, body: { object: 'list', data: usage(ctx.store, query.app_id ?? null, query.month ?? null) } };
  }),
] as const;
