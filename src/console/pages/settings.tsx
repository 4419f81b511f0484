/** @jsxImportSource hono/jsx */
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { ErrorText, Field, fieldFailure, formFailure, Notice, SecretOnce } from './parts.js';

export interface SettingsProps {
  chrome: Chrome;
  /** What the form shows: the saved values, or what was typed when a save was refused. */
  values: { webhook_url: string; results_delivery_enabled: boolean; daily_session_quota: string };
  failure?: Failure | undefined;
  /** The whsec_ signing secret, only in the answer that issued it (APP-2). */
  issuedSecret?: string | undefined;
  saved: boolean;
}

const FIELDS = ['webhook_url', 'results_delivery_enabled', 'daily_session_quota'] as const;

/** The app's settings: webhook URL, results delivery, daily quota; the signing secret once, then its hint. */
export function SettingsPage(props: SettingsProps) {
  const { app } = props.chrome;
  const results = fieldFailure(props.failure, 'settings', 'results_delivery_enabled');
  const other = formFailure(props.failure, 'settings', FIELDS);
  return (
    <Layout page="Settings" chrome={props.chrome} failure={props.failure}>
      {props.saved ? <Notice>Saved.</Notice> : null}
      {props.issuedSecret ? <SecretOnce label="Webhook signing secret" value={props.issuedSecret} id="issued-webhook-secret" /> : null}
      <form method="post" action={pageHref('/settings', app, props.chrome.apps)} class="stack">
        <Field
          form="settings"
          name="webhook_url"
          label="Webhook URL"
          value={props.values.webhook_url}
          inputmode="url"
          placeholder="http://127.0.0.1:4242/webhooks"
          hint="Where deliveries go (http or https). Empty: no deliveries, but scans are still recorded and billed."
          failure={props.failure}
        />
        <div class="field">
          <input
            type="checkbox"
            id="settings-results_delivery_enabled"
            name="results_delivery_enabled"
            value="true"
            checked={props.values.results_delivery_enabled}
            aria-describedby={`settings-results-hint${results ? ' settings-results_delivery_enabled-error' : ''}`}
          />{' '}
          <label for="settings-results_delivery_enabled">Results delivery</label>
          <p class="hint" id="settings-results-hint">
            Stores each scan's result and sends scan.results_available. Turning it on states that you obtain each member's consent and honor
            deletion requests.
          </p>
          {results ? <ErrorText id="settings-results_delivery_enabled-error" failure={results} /> : null}
        </div>
        <Field
          form="settings"
          name="daily_session_quota"
          label="Daily session quota"
          value={props.values.daily_session_quota}
          inputmode="numeric"
          hint="Sessions the app may mint per UTC day on the emulator's clock; past it, POST /v1/sessions answers 429 quota_exceeded."
          failure={props.failure}
        />
        <button type="submit">Save</button>
        {other ? <ErrorText id="settings-error" failure={other} /> : null}
      </form>
      <h2>Signing secret</h2>
      <p>
        {app.webhook_secret_hint ? (
          <>
            <code>{app.webhook_secret_hint}</code> (the whsec_ secret is shown once, when issued; only this hint afterwards)
          </>
        ) : (
          'None yet: the whsec_ signing secret is issued, and shown once, when a webhook URL is first set.'
        )}
      </p>
      <h2>App</h2>
      <dl class="facts">
        <dt>App</dt>
        <dd>
          {app.name} <code>{app.id}</code>
        </dd>
        <dt>Bundle identifier</dt>
        <dd>
          <code>{app.bundle_id}</code>
        </dd>
        <dt>Team identifier</dt>
        <dd>
          <code>{app.team_id}</code>
        </dd>
        <dt>Billing profile</dt>
        <dd>{app.billing_profile ? 'yes' : 'no'}</dd>
        <dt>Terms accepted</dt>
        <dd>{app.terms_accepted ? 'yes' : 'no'}</dd>
      </dl>
    </Layout>
  );
}
