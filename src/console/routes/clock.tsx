/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { ClockAdvanceRequest, ClockSetRequest } from '../../contract/control.js';
import type { ConsoleContext } from '../context.js';
import { advanceClockBy, setClockTo } from '../../emulator/domain/clock.js';
import { PORTAL_COOKIE, renewPortalSession } from '../../emulator/domain/portal-sessions.js';
import { parseWith } from '../../contract/request-errors.js';
import type { ConsoleEnv } from '../env.js';
import { attempt, readForm, textField, type Failure } from '../form.js';
import { chromeOf } from '../pages/chrome.js';
import { ClockPage } from '../pages/clock.js';
import { redirectDone, renderPage } from '../render.js';

/** Clock: advance and set, the control plane's own functions. */
export function clockRoutes(ctx: ConsoleContext) {
  const page = (c: Context<ConsoleEnv>, values = { duration: '', time: '' }, failure?: Failure) => {
    const chrome = chromeOf(ctx, c);
    const played = c.req.query('played');
    const view = (
      <ClockPage
        chrome={chrome}
        realNowMs={Date.now()}
        nextDueAt={ctx.webhooks.nextDueAt()}
        values={values}
        failure={failure}
        played={c.req.query('done') === 'moved' && played && /^\d+$/.test(played) ? Number(played) : undefined}
      />
    );
    return renderPage(c, view, failure?.status ?? 200);
  };

  return new Hono<ConsoleEnv>()
    .get('/clock', (c) => page(c))
    .post('/clock/:verb{advance|set}', async (c) => {
      const verb = c.req.param('verb');
      const form = await readForm(c);
      const values = { duration: form.duration ?? '', time: form.time ?? '' };
      const result = await attempt(verb, () =>
        verb === 'advance'
          ? advanceClockBy(ctx, parseWith(ClockAdvanceRequest, { duration: textField(form.duration) }).duration)
          : setClockTo(ctx, parseWith(ClockSetRequest, { time: textField(form.time) }).time),
      );
      if (!result.ok) return page(c, values, result.failure);
      // The developer moved the clock from here: their session lasts from the new now (it would otherwise end mid-advance).
      renewPortalSession(ctx, getCookie(c, PORTAL_COOKIE)!);
      return redirectDone(c, '/clock', 'moved', { played: String(result.value.played) });
    });
}
