/** @jsxImportSource hono/jsx */
import type { Installation } from '../../contract/device.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { ActionForm, Notice, TableRegion, Time } from './parts.js';

/** The app's device installations; a blocked one's next scan fails to start (DEV-3). */
export function InstallationsPage(props: { chrome: Chrome; installations: Installation[]; failure?: Failure | undefined; done?: string | undefined }) {
  const { chrome } = props;
  return (
    <Layout page="Installations" chrome={chrome} failure={props.failure}>
      {props.done === 'block' ? <Notice>Blocked: its next scan fails to start.</Notice> : null}
      {props.done === 'unblock' ? <Notice>Unblocked.</Notice> : null}
      <TableRegion label="Installations">
        <table class="cards">
          <caption class="visually-hidden">Device installations</caption>
          <thead>
            <tr>
              <th scope="col">Installation</th>
              <th scope="col">Status</th>
              <th scope="col">App version</th>
              <th scope="col">Enrolled</th>
              <th scope="col">Enrollments</th>
              <th scope="col">Last seen</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {props.installations.length === 0 ? (
              <tr>
                <td colspan={7}>No installation has enrolled yet (scanctl scan simulate enrolls one).</td>
              </tr>
            ) : (
              props.installations.map((i) => {
                const verb = i.status === 'blocked' ? 'unblock' : 'block';
                return (
                  <tr>
                    <td data-label="Installation" class="mono">{i.id}</td>
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
              })
            )}
          </tbody>
        </table>
      </TableRegion>
    </Layout>
  );
}
