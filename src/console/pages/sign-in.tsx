/** @jsxImportSource hono/jsx */
import type { Failure } from '../form.js';
import { Document } from './layout.js';
import { ErrorText } from './parts.js';

export interface SignInProps {
  /** Each account with its apps' names, the default app's account first. */
  accounts: Array<{ id: string; apps: string[]; suspended: boolean }>;
  next: string;
  failure?: Failure | undefined;
  signedOut?: boolean;
}

/** The emulated portal's sign-in: on loopback, one click as the fixture's developer of an account. */
export function SignInPage(props: SignInProps) {
  return (
    <Document title="Sign in">
      <main id="main" class="narrow">
        <h1>Sign in to the scanctl console</h1>
        {props.signedOut ? (
          <p class="notice" role="status">
            You are signed out.
          </p>
        ) : null}
        <p>
          The emulated portal of this scanctl emulator. On your own machine, sign in as the developer of one of the fixture's accounts: the
          console gets the portal's session cookie (HttpOnly, SameSite=Strict).
        </p>
        {props.failure ? <ErrorText id="sign-in-error" failure={props.failure} /> : null}
        <ul class="accounts">
          {props.accounts.map((account) => (
            <li>
              <form method="post" action="/sign-in">
                <input type="hidden" name="account_id" value={account.id} />
                <input type="hidden" name="next" value={props.next} />
                <button type="submit">Sign in as {account.id}</button>{' '}
                <span class="muted">
                  {account.apps.length ? `apps: ${account.apps.join(', ')}` : 'no apps'}
                  {account.suspended ? ' (account suspended)' : ''}
                </span>
              </form>
            </li>
          ))}
        </ul>
      </main>
    </Document>
  );
}

/** A page for a refusal that belongs to no form (a missing delivery, a cross-site post). */
export function ErrorPage(props: { status: number; code: string; message: string; signedIn: boolean }) {
  return (
    <Document title={`Error ${props.status}`}>
      <main id="main" class="narrow">
        <h1>
          {props.status} <code>{props.code}</code>
        </h1>
        <p role="alert">{props.message}</p>
        <p>
          <a href={props.signedIn ? '/deliveries' : '/sign-in'}>{props.signedIn ? 'Back to the console' : 'Sign in'}</a>
        </p>
      </main>
    </Document>
  );
}
