/** @jsxImportSource hono/jsx */
import type { Scan } from '../../contract/device.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { ClipCell, Field, formFailure, ErrorText, Notice, RecordTable, Time } from './parts.js';

export interface ScansProps {
  chrome: Chrome;
  scans: Scan[];
  member: string;
  limit: number;
  failure?: Failure | undefined;
  deleted?: { member: string; count: number } | undefined;
}

/** Scans by member: outcome, environment, billable or not, occurred_at; delete a member's stored results. */
export function ScansPage(props: ScansProps) {
  const { chrome } = props;
  const deleteFailure = formFailure(props.failure, 'delete', ['host_user_ref']);
  return (
    <Layout page="Scans" chrome={chrome} failure={props.failure}>
      {props.deleted ? (
        <Notice>
          Deleted {props.deleted.count} stored result{props.deleted.count === 1 ? '' : 's'} of <code>{props.deleted.member}</code> and
          cancelled their queued deliveries (DELETE /v1/results).
        </Notice>
      ) : null}
      <form method="get" action="/scans" class="filters">
        {chrome.apps[0]?.id !== chrome.app.id ? <input type="hidden" name="app" value={chrome.app.id} /> : null}
        <Field form="filter" name="host_user_ref" label="Member (host_user_ref)" value={props.member} failure={props.failure} />
        <button type="submit">Show scans</button>
      </form>
      <p class="muted">
        {props.member ? 'Scans of this member' : "Every member's scans"}, newest first (at most {props.limit}).
      </p>
      <RecordTable
        label="Scans"
        caption="Recorded scans"
        columns={['Scan', 'Member', 'Outcome', 'Environment', 'Billable', 'Occurred at', 'Result', 'Installation']}
        empty="No scans recorded."
        rows={props.scans.map((s) => (
          <tr>
            <ClipCell label="Scan" value={s.id} mono />
            <ClipCell label="Member" value={s.host_user_ref}>
              <a href={pageHref('/scans', chrome.app, chrome.apps, { host_user_ref: s.host_user_ref })}>{s.host_user_ref}</a>
            </ClipCell>
            <td data-label="Outcome">
              <span class={`status status-${s.status}`}>{s.status}</span>
            </td>
            <td data-label="Environment">{s.env}</td>
            <td data-label="Billable">{s.billable ? 'billable' : 'not billable'}</td>
            <td data-label="Occurred at">{s.occurred_at ? <Time ms={Date.parse(s.occurred_at)} now={chrome.now} /> : '-'}</td>
            <td data-label="Result">{s.result_stored ? 'stored' : '-'}</td>
            <ClipCell label="Installation" value={s.installation_id} mono />
          </tr>
        ))}
      />
      <h2>Delete a member's stored results</h2>
      <form method="post" action={pageHref('/scans/delete-results', chrome.app, chrome.apps)} class="stack">
        <Field
          form="delete"
          name="host_user_ref"
          label="Member whose results to delete"
          value={props.member}
          hint="Removes every stored result and queued delivery of this host_user_ref, as DELETE /v1/results does."
          failure={props.failure}
        />
        <button type="submit" class="danger">
          Delete stored results
        </button>
        {deleteFailure ? <ErrorText id="delete-error" failure={deleteFailure} /> : null}
      </form>
    </Layout>
  );
}
