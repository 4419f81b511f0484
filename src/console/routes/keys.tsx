/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { KeyActionRequest, KeyIssueRequest } from '../../contract/control.js';
import { ApiError } from '../../contract/errors.js';
import type { ConsoleContext } from '../context.js';
import { changeKeyState, issueKeyPair, keyToChange, keyView, rotateSecretKey, type KeyAction } from '../../emulator/domain/keys.js';
import { parseWith } from '../../contract/request-errors.js';

import type { ConsoleEnv } from '../env.js';
import { attempt, readForm, textField, type Failure } from '../form.js';
import { chromeOf } from '../pages/chrome.js';
import { KeysPage, type IssuedKeys } from '../pages/keys.js';
import { redirectDone, renderPage } from '../render.js';

const STATE_ACTIONS = ['revoke', 'suspend', 'reinstate'] as const satisfies KeyAction[];
const isStateAction = (verb: string): verb is KeyAction => (STATE_ACTIONS as readonly string[]).includes(verb);

/** Keys: the control plane's key operations (CHOICE-8), with the same schemas and domain functions. */
export function keyRoutes(ctx: ConsoleContext) {
  const page = (c: Context<ConsoleEnv>, options: { failure?: Failure; issued?: IssuedKeys; confirmRevoke?: string } = {}) => {
    const chrome = chromeOf(ctx, c);
    const keys = ctx.store.keys.forApp(chrome.app.id).map((k) => keyView(k, chrome.now));
    const confirmRevoke = keys.find((k) => k.id === options.confirmRevoke && k.state !== 'revoked');
    const view = (
      <KeysPage
        chrome={chrome}
        keys={keys}
        failure={options.failure}
        issued={options.issued}
        done={c.req.query('done')}
        confirmRevoke={confirmRevoke}
      />
    );
    return renderPage(c, view, options.failure?.status ?? 200);
  };

  return new Hono<ConsoleEnv>()
    .get('/keys', (c) => page(c))
    .post('/keys/:action', async (c) => {
      const verb = c.req.param('action');
      const form = await readForm(c);
      const app = ctx.store.apps.get(c.get('app').id)!;
      if (verb === 'issue' || verb === 'rotate') {
        const result = await attempt(`${verb}-${form.env === 'live' ? 'live' : 'test'}`, () => {
          const { env } = parseWith(KeyIssueRequest, { env: form.env });
          const now = ctx.clock.now();
          return verb === 'issue' ? issueKeyPair(ctx.store, ctx.ids, now, app, env) : rotateSecretKey(ctx.store, ctx.ids, now, app, env);
        });
        if (!result.ok) return page(c, { failure: result.failure });
        // AUTH-11: the new secret key in this answer only.
        return page(c, { issued: { env: result.value.env, secret: result.value.secret.key, rotated: verb === 'rotate' } });
      }
      if (!isStateAction(verb)) throw new ApiError('route_not_found', `No console action ${verb.slice(0, 50)} on keys.`);
      // Final: the first post asks, the confirmed one revokes.
      if (verb === 'revoke' && form.confirm !== 'yes' && typeof form.key_id === 'string') {
        const now = ctx.clock.now();
        const asked = ctx.store.keys.forApp(app.id).some((k) => k.id === form.key_id && keyView(k, now).state !== 'revoked');
        if (asked) return page(c, { confirmRevoke: form.key_id });
      }
      const result = await attempt(`key-${form.key_id ?? ''}`, () => {
        const body = parseWith(KeyActionRequest, { key_id: textField(form.key_id) });
        const now = ctx.clock.now();
        return changeKeyState(ctx.store, now, keyToChange(ctx.store, now, app, body), verb);
      });
      if (!result.ok) return page(c, { failure: result.failure });
      return redirectDone(c, '/keys', verb);
    });
}
