import type { Context } from 'hono';
import type { ConsoleContext } from '../context.js';
import type { ConsoleEnv } from '../env.js';
import type { Chrome } from './layout.js';

/** What the layout shows around every signed-in page, for this request. */
export function chromeOf(ctx: ConsoleContext, c: Context<ConsoleEnv>): Chrome {
  const developer = c.get('developer');
  // The app row again: an action of this request may just have changed it.
  const app = ctx.store.apps.get(c.get('app').id)!;
  return { accountId: developer.accountId, app, apps: developer.apps, now: ctx.clock.now() };
}
