/** @jsxImportSource hono/jsx */
import { fromRealTime } from '../../clock/duration.js';
import type { Failure } from '../form.js';
import { pageHref } from '../render.js';
import { Layout, type Chrome } from './layout.js';
import { Field, Notice, Time } from './parts.js';

export interface ClockProps {
  chrome: Chrome;
  /** The machine's time when the page was drawn: the clock is shown as its distance from it, as `scanctl clock show` does. */
  realNowMs: number;
  nextDueAt: number | null;
  values: { duration: string; time: string };
  failure?: Failure | undefined;
  played?: number | undefined;
}

/** The emulator's clock: advance by a duration or set a time; every due retry plays at its own virtual time. */
export function ClockPage(props: ClockProps) {
  const { chrome } = props;
  return (
    <Layout page="Clock" chrome={chrome} failure={props.failure}>
      {props.played !== undefined ? (
        <Notice>
          Clock moved; {props.played} due timer{props.played === 1 ? '' : 's'} (webhook attempts) played on the way.
        </Notice>
      ) : null}
      <dl class="facts">
        <dt>Now</dt>
        <dd>
          <Time ms={chrome.now} now={chrome.now} relative={false} />
        </dd>
        <dt>From real time</dt>
        <dd>{fromRealTime(chrome.now, props.realNowMs)}</dd>
        <dt>Next webhook attempt due</dt>
        <dd>{props.nextDueAt === null ? 'none' : <Time ms={props.nextDueAt} now={chrome.now} />}</dd>
      </dl>
      <form method="post" action={pageHref('/clock/advance', chrome.app, chrome.apps)} class="stack">
        <Field
          form="advance"
          name="duration"
          label="Advance by"
          value={props.values.duration}
          placeholder="15m"
          hint="A duration: 90s, 15m, 24h, 3d, 1h30m."
          failure={props.failure}
        />
        <button type="submit">Advance</button>
      </form>
      <form method="post" action={pageHref('/clock/set', chrome.app, chrome.apps)} class="stack">
        <Field
          form="set"
          name="time"
          label="Set the time to"
          value={props.values.time}
          placeholder="2026-12-01T00:00:00Z"
          hint="An ISO 8601 time, later than now: the clock only moves forward."
          failure={props.failure}
        />
        <button type="submit">Set time</button>
      </form>
    </Layout>
  );
}
