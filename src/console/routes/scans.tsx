/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { ScanListQuery, UsageQuery } from '../../contract/device.js';
import { ApiError } from '../../contract/errors.js';
import { DeleteResultsQuery } from '../../contract/results.js';
import type { ConsoleContext } from '../context.js';
import { usage } from '../../emulator/domain/billing.js';
import { installationView } from '../../emulator/domain/device.js';
import { deleteMemberData } from '../../emulator/domain/member-data.js';
import { scanView } from '../../emulator/domain/scans.js';
import { parseWith } from '../../contract/request-errors.js';
import type { ConsoleEnv } from '../env.js';
import { attempt, failureOf, readForm, textField, type Failure } from '../form.js';
import { chromeOf } from '../pages/chrome.js';
import { InstallationsPage } from '../pages/installations.js';
import { ScansPage } from '../pages/scans.js';
import { UsagePage } from '../pages/usage.js';
import { redirectDone, renderPage } from '../render.js';

const SCAN_LIMIT = 100;

/** Scans, Usage and Installations: the device side's control plane, read and acted on. */
export function scanRoutes(ctx: ConsoleContext) {
  const scansPage = (
    c: Context<ConsoleEnv>,
    member: string,
    options: { failure?: Failure; deleted?: { member: string; count: number } } = {},
  ) => {
    const chrome = chromeOf(ctx, c);
    let failure = options.failure;
    let filter: string | null = null;
    try {
      filter = parseWith(ScanListQuery, { host_user_ref: textField(member), limit: SCAN_LIMIT }).host_user_ref ?? null;
    } catch (error) {
      failure ??= failureOf('filter', error);
    }
    const scans = ctx.store.device.listScans(chrome.app.id, filter, SCAN_LIMIT).map((r) => scanView(r));
    const view = <ScansPage chrome={chrome} scans={scans} member={member} limit={SCAN_LIMIT} failure={failure} deleted={options.deleted} />;
    return renderPage(c, view, failure?.status ?? 200);
  };
  const installationsPage = (c: Context<ConsoleEnv>, failure?: Failure) => {
    const chrome = chromeOf(ctx, c);
    const installations = ctx.store.device.installationsForApp(chrome.app.id).map(installationView);
    return renderPage(
      c,
      <InstallationsPage chrome={chrome} installations={installations} failure={failure} done={c.req.query('done')} />,
      failure?.status ?? 200,
    );
  };

  return new Hono<ConsoleEnv>()
    .get('/scans', (c) => scansPage(c, c.req.query('host_user_ref') ?? ''))
    .post('/scans/delete-results', async (c) => {
      const form = await readForm(c);
      const member = form.host_user_ref ?? '';
      const result = await attempt('delete', () => {
        const { host_user_ref } = parseWith(DeleteResultsQuery, { host_user_ref: textField(member) });
        return deleteMemberData(ctx, c.get('app').id, host_user_ref);
      });
      if (!result.ok) return scansPage(c, member, { failure: result.failure });
      return scansPage(c, member, { deleted: { member, count: result.value } });
    })
    .get('/usage', (c) => {
      const chrome = chromeOf(ctx, c);
      const month = c.req.query('month') ?? '';
      let failure: Failure | undefined;
      let rows = usage(ctx.store, chrome.app.id, null);
      try {
        const query = parseWith(UsageQuery, { month: textField(month) });
        if (query.month) rows = usage(ctx.store, chrome.app.id, query.month);
      } catch (error) {
        failure = failureOf('filter', error);
      }
      return renderPage(c, <UsagePage chrome={chrome} rows={rows} month={month} failure={failure} />, failure?.status ?? 200);
    })
    .get('/installations', (c) => installationsPage(c))
    .post('/installations/:installation_id/:verb', (c) => {
      const { installation_id: id, verb } = c.req.param();
      if (verb !== 'block' && verb !== 'unblock')
        throw new ApiError('route_not_found', `No console action ${verb.slice(0, 50)} on installations.`);
      const installation = ctx.store.device.installation(id);
      if (!installation || !c.get('developer').apps.some((a) => a.id === installation.app_id)) {
        return installationsPage(
          c,
          failureOf(`installation-${id}`, new ApiError('resource_missing', `No installation ${id.slice(0, 100)}.`, 'installation_id')),
        );
      }
      // DEV-3: a blocked installation's next scan fails to start.
      ctx.store.device.setBlocked(installation.id, verb === 'block', ctx.clock.now());
      return redirectDone(c, '/installations', verb);
    });
}
