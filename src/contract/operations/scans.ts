import { CONTROL_PREFIX } from '../control.js';
import { Installation, InstallationList, ScanList, ScanListQuery, UsageList, UsageQuery } from '../device.js';
import { byOperationId } from '../operation.js';
import { controlOperation as control, SCAN_EXAMPLE } from './define.js';
import { SimulateScanRequest, SimulateScanResult } from '../simulate-run.js';

/**
 * The control plane of the device side: installations (block, unblock), recorded scans and the
 * billing view (usage). The SDK's own routes are in ./device.ts.
 */
const P = CONTROL_PREFIX;

const INSTALLATION_ACTION_DESCRIPTIONS = {
  block:
    'Blocks the installation server-side (DEV-3): its next scan fails to start with 403 installation_blocked; scans already recorded stay. Takes no body (CHOICE-53).',
  unblock: "Lifts the block: the installation's next scan starts again (DEV-3). Takes no body (CHOICE-53).",
} as const;

const installationBlockActions = (['block', 'unblock'] as const).map((action) =>
  control({
    method: 'post',
    path: `${P}/installations/{installation_id}/${action}`,
    operationId: `${action}Installation`,
    summary: action === 'block' ? 'Block an installation server-side: its next scan fails to start' : 'Lift the block of an installation',
    description: INSTALLATION_ACTION_DESCRIPTIONS[action],
    rules: ['DEV-3'],
    pathParams: { installation_id: 'The installation, e.g. ins_Hk3nV9qW2sB6dJ0e.' },
    responses: { 200: { description: 'The installation in its new state.', schema: Installation } },
    errors: ['resource_missing'],
  }),
);

export const scanOperations = byOperationId(
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/installations`,
    operationId: 'listInstallations',
    summary: "The app's enrolled installations",
    description:
      "The app's installations with their status (enrolled or blocked), bundle and team ids, app version, and when they enrolled and were last seen.",
    rules: ['DEV-1'],
    pathParams: { app_id: 'The app, e.g. app_demo.' },
    responses: { 200: { description: 'The installations.', schema: InstallationList } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'get',
    path: `${P}/installations/{installation_id}`,
    operationId: 'getInstallation',
    summary: 'One installation',
    description: 'One installation by id, whatever its app. Unknown installation: 404 resource_missing.',
    pathParams: { installation_id: 'The installation.' },
    responses: { 200: { description: 'The installation.', schema: Installation } },
    errors: ['resource_missing'],
  }),
  ...installationBlockActions,
  control({
    method: 'get',
    path: `${P}/apps/{app_id}/scans`,
    operationId: 'listScans',
    summary: "The app's recorded scans, newest first",
    description:
      "The app's scans as the service recorded them: status, model_version, occurred_at, whether billable (BILL-1, BILL-2) and how many reports came in. Optionally one member's (host_user_ref).",
    pathParams: { app_id: 'The app, e.g. app_demo.' },
    query: ScanListQuery,
    responses: { 200: { description: 'The scans.', schema: ScanList, example: { object: 'list', data: [SCAN_EXAMPLE] } } },
    errors: ['resource_missing'],
  }),
  control({
    method: 'post',
    path: `${P}/apps/{app_id}/scans/simulate`,
    operationId: 'simulateScan',
    summary: "Play one member's scan through the device routes, as `scanctl scan simulate` does, and wait for its webhooks",
    description:
      "The emulator plays the SDK's side itself (mint with the app's fixture test key, enrollment, model, model key, mesh fit, scan events, result upload) through its own routes, so a test in any language needs no CLI call. With wait (the default) it answers once every delivery of the scan is acknowledged, exhausted or timed out, each with its attempts; play_retries moves the clock to each retry (CHOICE-41). An app whose fixtures give no test secret key: 400 parameter_invalid.",
    rules: ['DEV-1', 'WH-1'],
    pathParams: { app_id: 'The app, e.g. app_demo.' },
    request: { schema: SimulateScanRequest, example: { host_user_ref: 'member_123', play_retries: true } },
    responses: { 201: { description: 'The scan, and with wait its deliveries with every attempt.', schema: SimulateScanResult } },
    errors: ['resource_missing', 'parameter_invalid'],
  }),
  control({
    method: 'get',
    path: `${P}/usage`,
    operationId: 'getUsage',
    summary: 'The billing view per app and month: monthly active scanning users, billable, test, failed and abandoned scans',
    description:
      'What the invoice counts (BILL-4): per app and UTC month of occurred_at, monthly active scanning users, billable scans, and the test, failed and abandoned scans that are not billed.',
    rules: ['BILL-1', 'BILL-2', 'BILL-3', 'BILL-4', 'BILL-5', 'BILL-6'],
    query: UsageQuery,
    responses: {
      200: {
        description: 'One row per app and UTC month of occurred_at (with app_id and month: exactly that row, zeros included).',
        schema: UsageList,
        example: {
          object: 'list',
          data: [
            {
              object: 'usage',
              app_id: 'app_demo',
              month: '2026-11',
              monthly_active_users: 1,
              billable_scans: 2,
              test_scans: 3,
              test_active_users: 1,
              completed_scans: 4,
              failed_scans: 1,
              abandoned_scans: 0,
            },
          ],
        },
      },
    },
    errors: ['resource_missing'],
  }),
);
