/** @jsxImportSource hono/jsx */
import type { ApiKey } from '../../contract/control.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { ActionForm, Notice, SecretOnce, RecordTable, Time } from './parts.js';

export interface IssuedKeys {
  env: 'test' | 'live';
  secret: string;
  rotated: boolean;
}

export interface KeysProps {
  chrome: Chrome;
  keys: ApiKey[];
  failure?: Failure | undefined;
  issued?: IssuedKeys | undefined;
  done?: string | undefined;
  /** A revoke asked for and not yet confirmed: it is final, so the page asks first. */
  confirmRevoke?: ApiKey | undefined;
}

const DONE: Record<string, string> = { revoke: 'Revoked.', suspend: 'Suspended.', reinstate: 'Reinstated.' };

/** Keys: test and live pairs (secret keys masked), create, rotate with grace, revoke, suspend, reinstate. */
export function KeysPage(props: KeysProps) {
  const { chrome, keys } = props;
  const action = (verb: string) => pageHref(`/keys/${verb}`, chrome.app, chrome.apps);
  const current = (env: string) =>
    keys.find((k) => k.kind === 'secret' && k.env === env && k.replaced_by === null && k.state !== 'revoked');
  return (
    <Layout page="Keys" chrome={chrome} failure={props.failure}>
      {props.done && DONE[props.done] ? <Notice>{DONE[props.done]}</Notice> : null}
      {props.confirmRevoke ? (
        <ConfirmRevoke keyView={props.confirmRevoke} action={action} cancel={pageHref('/keys', chrome.app, chrome.apps)} />
      ) : null}
      {props.issued ? (
        <>
          <Notice>
            {props.issued.rotated
              ? `Rotated the ${props.issued.env} secret key: the new one works now, the old one for 24 hours.`
              : `Created the ${props.issued.env} key pair.`}
          </Notice>
          <SecretOnce label={`New ${props.issued.env} secret key`} value={props.issued.secret} id="issued-secret-key" />
        </>
      ) : null}
      <RecordTable
        label="Keys"
        caption="Keys of the app"
        columns={['Environment', 'Kind', 'Key', 'State', 'Created', 'Actions']}
        rows={keys.map((key) => (
          <tr id={`key-${key.id}`}>
            <td data-label="Environment">{key.env}</td>
            <td data-label="Kind">{key.kind}</td>
            <td data-label="Key" class="wrap mono">
              {key.display}
            </td>
            <td data-label="State">
              <span class={`status status-${key.state}`}>{key.state}</span>
              {key.state === 'rotating' && key.grace_until ? (
                <span class="grace">
                  {' '}
                  grace ends <Time ms={Date.parse(key.grace_until)} now={chrome.now} />
                </span>
              ) : null}
            </td>
            <td data-label="Created">
              <Time ms={Date.parse(key.created_at)} now={chrome.now} />
            </td>
            <td data-label="Actions" class="actions">
              {key.state === 'revoked' ? (
                '-'
              ) : (
                <>
                  {key.state === 'suspended' ? (
                    <KeyAction verb="reinstate" label="Reinstate" keyView={key} action={action} failure={props.failure} />
                  ) : (
                    <KeyAction verb="suspend" label="Suspend" keyView={key} action={action} failure={props.failure} />
                  )}
                  <KeyAction verb="revoke" label="Revoke" keyView={key} action={action} failure={props.failure} danger />
                </>
              )}
            </td>
          </tr>
        ))}
      />
      {(['test', 'live'] as const).map((env) => {
        const key = current(env);
        return (
          <section aria-labelledby={`env-${env}`}>
            <h2 id={`env-${env}`}>{env === 'test' ? 'Test keys' : 'Live keys'}</h2>
            {key ? (
              <>
                <p>
                  Secret key <code>{key.display}</code>. Rotating issues a replacement that works at once; the old key keeps working for 24
                  hours on the emulator's clock.
                </p>
                <ActionForm
                  action={action('rotate')}
                  label={`Rotate ${env} secret key`}
                  form={`rotate-${env}`}
                  hidden={{ env }}
                  failure={props.failure}
                />
              </>
            ) : (
              <>
                <p>
                  No {env} key pair.
                  {env === 'live' ? " Live keys need the app owner's billing profile and accepted terms." : ''}
                </p>
                <ActionForm
                  action={action('issue')}
                  label={`Create ${env} keys`}
                  form={`issue-${env}`}
                  hidden={{ env }}
                  failure={props.failure}
                />
              </>
            )}
          </section>
        );
      })}
    </Layout>
  );
}

function KeyAction(props: {
  verb: string;
  label: string;
  keyView: ApiKey;
  action: (verb: string) => string;
  failure?: Failure | undefined;
  danger?: boolean;
}) {
  const { keyView } = props;
  return (
    <ActionForm
      action={props.action(props.verb)}
      label={props.label}
      form={`key-${keyView.id}`}
      hidden={{ key_id: keyView.id }}
      failure={props.failure}
      danger={props.danger}
      secondary={!props.danger}
      ariaLabel={`${props.label} ${keyView.env} ${keyView.kind} key ${keyView.display}`}
    />
  );
}

/** Revoking is final (the key stops working at once and never works again): one more step, which works without JavaScript. */
function ConfirmRevoke(props: { keyView: ApiKey; action: (verb: string) => string; cancel: string }) {
  const { keyView } = props;
  return (
    <section class="confirm" role="alert" aria-labelledby="confirm-revoke">
      <h2 id="confirm-revoke">
        Revoke the {keyView.env} {keyView.kind} key <code>{keyView.display}</code>?
      </h2>
      <p>This is final: the key stops working at once and cannot be reinstated. Suspend it instead to stop it for a while.</p>
      <ActionForm
        action={props.action('revoke')}
        label="Revoke for good"
        form={`confirm-${keyView.id}`}
        hidden={{ key_id: keyView.id, confirm: 'yes' }}
        danger
      />{' '}
      <a href={props.cancel}>Cancel</a>
    </section>
  );
}
