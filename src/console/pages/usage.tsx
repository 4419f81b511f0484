/** @jsxImportSource hono/jsx */
import type { Usage } from '../../contract/device.js';
import type { Failure } from '../form.js';
import { Layout, type Chrome } from './layout.js';
import { Field, RecordTable } from './parts.js';

/** Usage per month, as `scanctl usage` shows it. */
export function UsagePage(props: { chrome: Chrome; rows: Usage[]; month: string; failure?: Failure | undefined }) {
  const { chrome } = props;
  return (
    <Layout page="Usage" chrome={chrome} failure={props.failure}>
      <form method="get" action="/usage" class="filters">
        {chrome.apps[0]?.id !== chrome.app.id ? <input type="hidden" name="app" value={chrome.app.id} /> : null}
        <Field form="filter" name="month" label="Month (YYYY-MM, UTC)" value={props.month} failure={props.failure} placeholder="2026-11" />
        <button type="submit">Show</button>
      </form>
      <RecordTable
        label="Usage"
        caption="Usage per month"
        columns={['Month', 'Active users (billed)', 'Billable scans', 'Test scans', 'Failed', 'Abandoned']}
        empty={<>No scans recorded{props.month ? ` in ${props.month}` : ''} (minting sessions is never a charge).</>}
        rows={props.rows.map((u) => (
          <tr>
            <th scope="row">{u.month}</th>
            <td data-label="Active users (billed)">{u.monthly_active_users}</td>
            <td data-label="Billable scans">{u.billable_scans}</td>
            <td data-label="Test scans">{u.test_scans}</td>
            <td data-label="Failed">{u.failed_scans}</td>
            <td data-label="Abandoned">{u.abandoned_scans}</td>
          </tr>
        ))}
      />
      <p class="muted">Billed unit: distinct host_user_ref with a completed live-key scan, in the UTC month of occurred_at.</p>
    </Layout>
  );
}
