/** @jsxImportSource hono/jsx */
import type { Installation } from '../../contract/device.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { ActionForm, ClipCell, Notice, RecordTable, Time } from './parts.js';

/** The app's device installations; a blocked one's next scan fails to start (DEV-3). */
export function InstallationsPage(props: {
  chrome: Chrome;
  installations: Installation[];
  failure?: Failure | undefined;
  done?: string | undefined;
}) {
  const { chrome } = props;
  return (
    <Layout page="Installations" chrome={chrome} failure={props.failure}>
      {props.done === 'block' ? <Notice>Blocked: its next scan fails to start.</Notice> : null}
      {props.done === 'unblock' ? <Notice>Unblocked.</Notice> : null}
      <RecordTable
        label="Installations"
        caption="Device installations"
        columns={['Installation', 'Status', 'App version', 'Enrolled', 'Enrollments', 'Last seen', 'Action']}
        empty="No installation has enrolled yet (scanctl scan simulate enrolls one)."
        rows={props.installations.map((i) => {
          const verb = i.status === 'blocked' ? 'unblock' : 'block';
          return (
            <tr>
              <ClipCell label="Installation" value={i.id} mono />
              <td data-label="Status">
                <span class={`status status-${i.status}`}>{i.status}</span>
              </td>
              <td data-label="App version">{i.app_version ?? '-'}</td>
              <td data-label="Enrolled">
                <Time ms={Date.parse(i.enrolled_at)} now={chrome.now} />
              </td>
              <td data-label="Enrollments">{i.enrollments}</td>
              <td data-label="Last seen">
                <Time ms={Date.parse(i.last_seen_at)} now={chrome.now} />
              </td>
              <td data-label="Action">
                <ActionForm
                  action={pageHref(`/installations/${encodeURIComponent(i.id)}/${verb}`, chrome.app, chrome.apps)}
                  label={verb === 'block' ? 'Block' : 'Unblock'}
                  form={`installation-${i.id}`}
                  failure={props.failure}
                  danger={verb === 'block'}
                  ariaLabel={`${verb === 'block' ? 'Block' : 'Unblock'} installation ${i.id}`}
                />
              </td>
            </tr>
          );
        })}
      />
    </Layout>
  );
}
