/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { AppRow } from '../../store/tables/apps.js';
import { pageHref } from '../render.js';
import type { Failure } from '../form.js';
import { ErrorSummary, Time } from './parts.js';

/** The console's pages, named as the navigation shows them on every page. */
const NAV = [
  ['Deliveries', '/deliveries'],
  ['Settings', '/settings'],
  ['Keys', '/keys'],
  ['Scans', '/scans'],
  ['Usage', '/usage'],
  ['Clock', '/clock'],
  ['Installations', '/installations'],
] as const;
export type PageName = (typeof NAV)[number][0];

/** What every signed-in page shows around its content. */
export interface Chrome {
  accountId: string;
  app: AppRow;
  apps: AppRow[];
  now: number;
}

export function Document(props: { title: string; children?: Child; live?: string | undefined }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · scanctl console</title>
        <link rel="stylesheet" href="/console/console.css" />
        <link rel="icon" href="/console/icon.svg" type="image/svg+xml" />
        {props.live ? <script src="/console/console.js" defer /> : null}
      </head>
      <body data-live={props.live}>{props.children}</body>
    </html>
  );
}

export function Layout(props: {
  page: PageName;
  title?: string;
  chrome: Chrome;
  live?: string | undefined;
  failure?: Failure | undefined;
  children?: Child;
}) {
  const { chrome } = props;
  const title = props.title ?? props.page;
  return (
    <Document title={`${title} (${chrome.app.id})`} live={props.live}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">
          <strong>scanctl</strong> console <span class="muted">· emulated portal</span>
        </p>
        <AppSwitch chrome={chrome} page={props.page} />
        <p class="clock">
          Emulator clock: <ClockText now={chrome.now} />
        </p>
        <form method="post" action="/sign-out" class="inline">
          <span class="muted">{chrome.accountId}</span> <button type="submit">Sign out</button>
        </form>
      </header>
      <nav aria-label="Console">
        <ul>
          {NAV.map(([name, path]) => (
            <li>
              <a href={pageHref(path, chrome.app, chrome.apps)} aria-current={name === props.page ? 'page' : undefined}>
                {name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <h1>{title}</h1>
        {props.failure ? <ErrorSummary failure={props.failure} /> : null}
        {props.children}
      </main>
    </Document>
  );
}

/** The account's app the pages are about: a plain GET form, so it works without script. */
function AppSwitch(props: { chrome: Chrome; page: PageName }) {
  const { app, apps } = props.chrome;
  if (apps.length < 2) {
    return (
      <p class="app">
        App: <strong>{app.name}</strong> <code>{app.id}</code>
      </p>
    );
  }
  const path = NAV.find(([name]) => name === props.page)?.[1] ?? '/deliveries';
  return (
    <form method="get" action={path} class="inline app">
      <label for="app-switch">App</label>{' '}
      <select id="app-switch" name="app">
        {apps.map((a) => (
          <option value={a.id} selected={a.id === app.id}>
            {a.name} ({a.id})
          </option>
        ))}
      </select>{' '}
      <button type="submit">Show</button>
    </form>
  );
}

/** The emulator's time in the header; live updates replace it by its id. */
export function ClockText(props: { now: number }) {
  return (
    <span id="emulator-clock">
      <Time ms={props.now} now={props.now} relative={false} />
    </span>
  );
}
