/**
 * The console's stylesheet and its one script, served from /console/ (the Content-Security-Policy
 * allows scripts and styles from this origin only). Kept as strings so the built package and the
 * CLI bundle carry them without copying files.
 */
export const CONSOLE_CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff; --accent: #0b5cad; --bad: #b42318; --good: #1a7f37; --warn: #8a5a00; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
code, .mono, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.muted { color: var(--muted); }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 1; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: center; padding: 8px 24px; border-bottom: 1px solid var(--line); background: var(--soft); }
header.top p { margin: 0; }
header.top .inline { margin-left: auto; }
nav[aria-label="Console"] ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 8px 20px; border-bottom: 1px solid var(--line); }
nav[aria-label="Console"] a { display: inline-block; padding: 6px 12px; border-radius: 6px; text-decoration: none; }
nav[aria-label="Console"] a[aria-current="page"] { background: var(--accent); color: #fff; }
main { padding: 8px 24px 48px; max-width: 1400px; }
main.narrow { max-width: 720px; margin: 0 auto; }
h1 { font-size: 24px; margin: 12px 0; }
h2 { font-size: 18px; margin: 24px 0 8px; }
h3 { font-size: 15px; margin: 16px 0 8px; }
button { font: inherit; padding: 6px 14px; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; min-height: 36px; }
button.secondary { background: var(--bg); color: var(--accent); }
button.danger { background: var(--bg); color: var(--bad); border-color: var(--bad); }
form.inline { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 2px 4px 2px 0; }
form.stack { display: grid; gap: 12px; max-width: 640px; margin: 12px 0 24px; justify-items: start; }
form.filters { display: flex; flex-wrap: wrap; align-items: end; gap: 12px; margin: 8px 0; }
.field { display: grid; gap: 4px; width: 100%; }
form.filters .field { width: auto; }
.field label { font-weight: 600; }
input[type=text], select { font: inherit; padding: 6px 8px; border: 1px solid #8c959f; border-radius: 6px; min-height: 36px; width: 100%; max-width: 640px; }
input[type=checkbox] { width: 20px; height: 20px; vertical-align: middle; }
.field:has(input[type=checkbox]) { display: block; }
input[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
.hint { margin: 0; color: var(--muted); font-size: 13px; }
.error { margin: 0; color: var(--bad); font-weight: 600; }
.error-summary { padding: 8px 12px; border-left: 4px solid var(--bad); background: #fdecea; margin: 8px 0; }
.error-summary p { margin: 0; }
.notice { padding: 8px 12px; border-left: 4px solid var(--good); background: #eef8f0; }
.confirm { padding: 8px 12px; border-left: 4px solid var(--bad); margin: 12px 0; }
.secret { padding: 12px; border: 2px solid var(--warn); border-radius: 6px; background: #fff8e6; max-width: 720px; margin: 12px 0; }
.secret p { margin: 0 0 8px; }
.table-region { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.mono, td.nowrap, td.actions { white-space: nowrap; }
td.wrap { min-width: 10ch; }
thead th { background: var(--soft); font-size: 13px; }
td.wrap, .wrap { white-space: normal; overflow-wrap: anywhere; }
/* Ids and members (ClipCell): one line, an ellipsis where cut, the whole value in the cell's title. */
td.clip { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 28ch; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
.status { font-weight: 600; }
.status-succeeded, .status-active, .status-completed, .status-enrolled { color: var(--good); }
.status-failed, .status-revoked, .status-cancelled, .status-blocked, .status-suspended { color: var(--bad); }
.status-pending, .status-in_flight, .status-rotating { color: var(--warn); }
.badge { margin-left: 6px; padding: 0 6px; border-radius: 10px; background: var(--soft); border: 1px solid var(--line); font-size: 12px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
pre.body { background: var(--soft); border: 1px solid var(--line); padding: 12px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
.pager { display: flex; gap: 16px; margin: 12px 0; }
ul.accounts { list-style: none; padding: 0; display: grid; gap: 12px; }
@media (max-width: 640px) {
  header.top, main { padding-left: 12px; padding-right: 12px; }
  nav[aria-label="Console"] ul { padding: 6px 8px; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 8px; }
  /* Lists become one card per row, each cell labelled by its column. */
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards, table.cards tbody, table.cards tr { display: block; width: 100%; }
  table.cards tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
  table.cards td { display: grid; grid-template-columns: 9em 1fr; gap: 8px; border: 0; padding: 2px 0; white-space: normal; overflow-wrap: anywhere; }
  table.cards td:not([data-label]), table.cards tbody th { display: block; border: 0; padding: 2px 0; }
  table.cards td::before { content: attr(data-label); font-weight: 600; color: var(--muted); }
  table.cards td.clip { max-width: none; overflow-wrap: normal; }
  table.cards td.clip > .clip-value { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
}
`;

/** The tab's icon (a browser asks for one; without it every page logs a 404). */
export const CONSOLE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b5cad"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>';

/**
 * Live updates: the page names its stream in <body data-live>; each `patch` event carries
 * server-rendered, already escaped HTML that replaces the element with the same id (or, for a new
 * delivery, goes first in the list). Without this script every page still works; it just does not
 * move until reloaded.
 */
export const CONSOLE_JS = `(() => {
  const url = document.body.dataset.live;
  if (!url || !window.EventSource) return;
  const status = document.getElementById('live-status');
  const say = (text) => { if (status) status.textContent = text; };
  const source = new EventSource(url);
  source.addEventListener('ready', () => say('Live: updates as deliveries happen.'));
  source.addEventListener('error', () => say('Live updates paused; retrying. Reload to see the latest.'));
  source.addEventListener('patch', (event) => {
    for (const patch of JSON.parse(event.data)) {
      const current = document.getElementById(patch.id);
      if (current) { current.outerHTML = patch.html; continue; }
      const list = patch.into && document.getElementById(patch.into);
      if (!list) continue;
      list.querySelector('[data-empty]')?.remove();
      list.insertAdjacentHTML('afterbegin', patch.html);
      const max = Number(list.dataset.max || 0);
      while (max && list.children.length > max) list.lastElementChild.remove();
    }
  });
  window.addEventListener('pagehide', () => source.close());
})();
`;
