/** The report page's style sheet (light and dark, screen and print) and its one optional script. */
import { PALETTE } from './charts.js';

export const CSS = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --panel: #f6f8fa; --line: #d0d7de;
  --ok: #0a7a3e; --bad: #b3261e; --note: #5a4a00; --bar: ${PALETTE[0]}; --over: ${PALETTE[5]}; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9da7b1; --bg: #0d1117; --panel: #161b22; --line: #30363d;
    --ok: #56d364; --bad: #ff7b72; --note: #e3b341; --bar: ${PALETTE[4]}; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; overflow-wrap: anywhere; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
h3.sub { font-size: .95rem; color: var(--muted); margin: .75rem 0 .25rem; }
.alt, .none { color: var(--muted); font-size: .9rem; margin: .25rem 0 .5rem; }
.facts { display: flex; flex-wrap: wrap; gap: .5rem 2rem; margin: .5rem 0; }
.facts div { min-width: 10rem; }
.facts.wide { display: block; }
.facts.wide div { margin: .3rem 0; }
dt { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
dd { margin: 0; overflow-wrap: break-word; }
.budget .bar { height: 14px; background: var(--panel); border: 1px solid var(--line); border-radius: 7px; overflow: hidden; max-width: 560px; }
.budget .fill { height: 100%; background: var(--bar); }
.budget .fill.over { background: var(--over); }
.budget p { margin: .3rem 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: .88rem; margin: .25rem 0 .75rem; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .55rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
thead th, table.arms th[scope=row], table.census td:nth-child(2) { white-space: nowrap; }
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
thead th { background: var(--panel); position: sticky; top: 0; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; border-radius: 999px; padding: 0 .5rem; font-size: .78rem; border: 1px solid currentColor; white-space: nowrap; }
.badge.ok { color: var(--ok); } .badge.bad { color: var(--bad); } .badge.note { color: var(--note); }
tr.bad td { background: color-mix(in srgb, var(--bad) 10%, transparent); }
.count { font-size: 1.1rem; font-weight: 600; margin: .25rem 0; }
figure.chart { margin: 1rem 0 1.75rem; break-inside: avoid; }
figure.chart figcaption { font-weight: 600; }
figure.chart svg { max-width: 100%; height: auto; }
figure.chart svg text { fill: var(--fg); }
details summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
.filter { margin: .25rem 0; padding: .3rem .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
th.sort { cursor: pointer; }
th.sort[aria-sort=ascending]::after { content: " ▲"; } th.sort[aria-sort=descending]::after { content: " ▼"; }
footer { color: var(--muted); font-size: .8rem; margin-top: 3rem; }
@media print {
  /* Paper is white: the light colours, also when the screen is dark (this rule comes after the dark one). */
  :root { color-scheme: light; --fg: #000000; --muted: #444444; --bg: #ffffff; --panel: #eeeeee; --line: #bbbbbb;
    --ok: #0a7a3e; --bad: #b3261e; --note: #5a4a00; --bar: ${PALETTE[0]}; }
  body { font-size: 11pt; background: #fff; color: #000; }
  main { max-width: none; padding: 0; }
  .filter { display: none; }
  /* The numbers behind each chart print, though their <details> is closed on screen. */
  details::details-content { content-visibility: visible; display: block; }
  details > *:not(summary) { display: block; }
  article.probe + article { break-before: page; }
  thead th { position: static; }
  section, figure { break-inside: avoid-page; }
}
`;

// Sorting and filtering the census: an enhancement only, the table is whole without it.
export const SCRIPT = `
(function () {
  // Browsers without ::details-content print a closed <details> closed: open them for the print only.
  let opened = [];
  addEventListener('beforeprint', function () {
    opened = Array.from(document.querySelectorAll('details:not([open])'));
    for (const d of opened) d.open = true;
  });
  addEventListener('afterprint', function () { for (const d of opened) d.open = false; opened = []; });
  for (const table of document.querySelectorAll('table.sortable')) {
    const body = table.tBodies[0];
    const input = document.createElement('input');
    input.type = 'search'; input.className = 'filter'; input.placeholder = 'Filter rows';
    input.setAttribute('aria-label', 'Filter the census');
    table.parentNode.before(input);
    input.addEventListener('input', function () {
      const q = input.value.toLowerCase();
      for (const row of body.rows) row.hidden = q !== '' && !row.textContent.toLowerCase().includes(q);
    });
    table.tHead.querySelectorAll('th').forEach(function (th, i) {
      th.classList.add('sort'); th.tabIndex = 0;
      const sort = function () {
        const up = th.getAttribute('aria-sort') !== 'ascending';
        table.tHead.querySelectorAll('th').forEach(function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
        const num = th.classList.contains('num');
        const key = function (r) { const t = r.cells[i].textContent; return num ? Number(t.replace(/[^0-9.-]/g, '')) : t; };
        const rows = Array.from(body.rows).sort(function (a, b) {
          const x = key(a), y = key(b);
          return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
        });
        for (const r of rows) body.appendChild(r);
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
    });
  }
})();
`;
