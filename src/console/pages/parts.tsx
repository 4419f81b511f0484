/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import { formatDuration } from '../../clock/duration.js';
import type { Failure } from '../form.js';

/** A time on the emulator's clock, with how far it is from now. */
export function Time(props: { ms: number | null; now: number; relative?: boolean }) {
  if (props.ms === null) return <span>-</span>;
  const iso = new Date(props.ms).toISOString();
  const delta = props.ms - props.now;
  const relative =
    delta === 0 ? 'now' : delta > 0 ? `in ${formatDuration(roundSeconds(delta))}` : `${formatDuration(roundSeconds(-delta))} ago`;
  return (
    <time datetime={iso}>
      {iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')}
      {props.relative === false ? '' : <span class="muted"> ({relative})</span>}
    </time>
  );
}

function roundSeconds(ms: number): number {
  return ms >= 1000 ? Math.round(ms / 1000) * 1000 : ms;
}

/**
 * The cell of an id or a member: one line, cut with an ellipsis where the column is narrower than
 * the value (never broken mid-word), the whole value in its title (shown on hover).
 */
export function ClipCell(props: { label: string; value: string; mono?: boolean; children?: Child }) {
  return (
    <td data-label={props.label} class={props.mono ? 'clip mono' : 'clip'} title={props.value}>
      <span class="clip-value">{props.children ?? props.value}</span>
    </td>
  );
}

/** The error the API gave, beside the field it names (or the form's button); the page's summary announces it. */
export function ErrorText(props: { id: string; failure: Failure }) {
  return (
    <p class="error" id={props.id}>
      {props.failure.message} <code>{props.failure.code}</code>
    </p>
  );
}

/** The failure for one field of one form, if that is where it belongs. */
export function fieldFailure(failure: Failure | undefined, form: string, param: string): Failure | undefined {
  return failure && failure.form === form && failure.param === param ? failure : undefined;
}

/** The failure of one form that names no field of it (shown beside its button). */
export function formFailure(failure: Failure | undefined, form: string, fields: readonly string[]): Failure | undefined {
  return failure && failure.form === form && !(failure.param && fields.includes(failure.param)) ? failure : undefined;
}

/** A labelled input with its error beside it (aria-invalid, aria-describedby). */
export function Field(props: {
  form: string;
  name: string;
  label: string;
  value?: string | undefined;
  type?: string;
  hint?: string;
  failure?: Failure | undefined;
  required?: boolean;
  inputmode?: 'url' | 'numeric' | 'text';
  placeholder?: string;
}) {
  const id = `${props.form}-${props.name}`;
  const failure = fieldFailure(props.failure, props.form, props.name);
  const described = [props.hint ? `${id}-hint` : '', failure ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        required={props.required}
        inputmode={props.inputmode}
        placeholder={props.placeholder}
        aria-invalid={failure ? 'true' : undefined}
        aria-describedby={described || undefined}
        autocomplete="off"
      />
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {failure ? <ErrorText id={`${id}-error`} failure={failure} /> : null}
    </div>
  );
}

/** A one-button form (an action on one thing), with its failure beside the button. */
export function ActionForm(props: {
  action: string;
  label: string;
  form: string;
  hidden?: Record<string, string>;
  failure?: Failure | undefined;
  danger?: boolean;
  secondary?: boolean;
  ariaLabel?: string;
}) {
  const failure = formFailure(props.failure, props.form, []);
  return (
    <form method="post" action={props.action} class="inline">
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? 'danger' : props.secondary ? 'secondary' : undefined} aria-label={props.ariaLabel}>
        {props.label}
      </button>
      {failure ? <ErrorText id={`${props.form}-error`} failure={failure} /> : null}
    </form>
  );
}

/** A notice after a change (role=status, announced politely). */
export function Notice(props: { children?: Child }) {
  return (
    <p class="notice" role="status">
      {props.children}
    </p>
  );
}

/** A secret shown once, in the answer that issued it: never again in any page. */
export function SecretOnce(props: { label: string; value: string; id: string }) {
  return (
    <div class="secret" role="status">
      <p>
        <strong>{props.label}</strong>: shown once, now. Copy it; the console never shows it again.
      </p>
      <label for={props.id} class="visually-hidden">
        {props.label}
      </label>
      <input id={props.id} type="text" readonly value={props.value} class="mono" />
    </div>
  );
}

/** A table in a region that scrolls sideways on a narrow screen (focusable so keyboards can scroll it). */
export function TableRegion(props: { label: string; children?: Child }) {
  return (
    <div class="table-region" role="region" aria-label={props.label} tabindex={0}>
      {props.children}
    </div>
  );
}

/**
 * A list of records in a TableRegion: the header row from `columns` (hidden on a narrow screen,
 * where each row is a card and each cell shows its data-label), and `empty` across one row when there are none.
 */
export function RecordTable(props: {
  label: string;
  caption: string;
  columns: string[];
  rows: Child[];
  empty?: Child;
  tbody?: Record<string, string | undefined>;
}) {
  return (
    <TableRegion label={props.label}>
      <table class="cards">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody {...props.tbody}>
          {props.rows.length === 0 && props.empty !== undefined ? (
            <tr data-empty="">
              <td colspan={props.columns.length}>{props.empty}</td>
            </tr>
          ) : (
            props.rows
          )}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** At the top of a page whose action was refused: announced at once (role=alert), whichever form it came from. */
export function ErrorSummary(props: { failure: Failure }) {
  return (
    <div class="error-summary" role="alert">
      <p>
        Nothing was changed: {props.failure.message} <code>{props.failure.code}</code>
      </p>
    </div>
  );
}

/**
 * What the receiver answered: the status or the error, then the start of the answer body as sent
 * (a 500 that says "database is locked" shows both). The body is shown as its bytes, in a `code`
 * element, never quoted: a JSON answer reads as the JSON it was. `max` cuts a long answer for a list.
 */
export function AnswerText(props: { error: string | null; status: number | null; excerpt: string | null; max?: number }) {
  const { error, status, excerpt, max = Infinity } = props;
  const head = error ?? (status === null ? '' : String(status));
  if (!excerpt) return <>{head || '-'}</>;
  const cut = excerpt.length > max ? `${excerpt.slice(0, max)}…` : excerpt;
  return (
    <>
      {head ? `${head}: ` : ''}
      <code class="answer-body">{cut}</code>
    </>
  );
}
