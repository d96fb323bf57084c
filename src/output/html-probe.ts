/** A probe's part of the report page: its head, verdict, arms, charts, census and audit. */
import type { Budget, Conjunct, Row } from '../base/shapes.js';
import { armCells } from './arms.js';
import { forgeryWarnings } from './census-block.js';
import { censusCells } from './census.js';
import { costByArmChart, costByModelChart, skillResolutionChart, spawnsOverTimeChart, toolsPerArmChart } from './charts.js';
import { badge, bdi, type Col, esc, figure, type ProbeReport, table } from './html-parts.js';
import { bound, budgetFigures, usd } from './report.js';
import { uniformityText } from './verdict.js';

function budgetBar(b: Budget): string {
  if (b.bound_usd === null) return `<p>${esc(`${usd(b.spent_usd)} over ${b.spawns} spawns; no budget is registered`)}</p>`;
  // A bound of 0 has no share (NULL): the bar is full once anything was spent.
  const share = Math.max(0, b.share_usd ?? (b.spent_usd > 0 ? 1 : 0));
  const shown = Math.min(100, share * 100);
  const state = b.within === null ? 'unknown' : b.within ? 'within' : 'over';
  const text = `${budgetFigures(b)}: ${state}`;
  return `<div class="budget">
<div class="bar" role="img" aria-label="${esc(`cost against the budget: ${text}`)}"><div class="fill ${state}" style="width:${shown.toFixed(2)}%"></div></div>
<p>${esc(text)}${b.unpriced ? esc(`; ${b.unpriced} spawn(s) with no total_cost_usd not counted`) : ''}</p>
</div>`;
}

function header(p: ProbeReport): string {
  const s = p.summary;
  const versions = (s.versions as string[] | undefined) ?? [];
  const facts: [string, string][] = [
    ['claude', versions.length ? versions.join(', ') : 'unknown'],
    ['spawns', `${s.spawns ?? 0} (${s.counted ?? 0} counted)`],
    ['dates (UTC)', s.first_started ? `${s.first_started} to ${s.last_ended ?? '?'}` : 'unknown'],
    ['spent', `${usd(p.cost.total_cost_usd)}`],
  ];
  return `<header class="probe-head">
<h2>${bdi(p.probe)}</h2>
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${bdi(v)}</dd></div>`).join('')}</dl>
<h3 class="sub">Cost against the budget</h3>
${budgetBar(p.verdict.budget)}
</header>`;
}

function verdictSection(p: ProbeReport, prefix: string): string {
  const v = p.verdict;
  const holding = v.conjuncts.filter((c) => c.holds).length;
  const rows = v.conjuncts.map((c: Conjunct) => ({ ...c, holds_text: c.holds ? 'holds' : 'fails' }));
  const conjuncts = `<div class="scroll"><table class="conjuncts">
<thead><tr><th scope="col" class="num">#</th><th scope="col">required</th><th scope="col">observed</th><th scope="col">result</th></tr></thead>
<tbody>
${rows.map((c) => `<tr class="${c.holds ? 'ok' : 'bad'}"><td class="num">${esc(c.n)}</td><td>${bdi(c.required)}</td><td>${bdi(c.result)}</td><td>${badge(c.holds_text, c.holds ? 'ok' : 'bad')}</td></tr>`).join('\n')}
</tbody></table></div>`;
  const b = v.budget;
  const facts: [string, string, boolean | null][] = [
    [
      'complete',
      v.complete
        ? 'every arm that should have run has its registered n of counted spawns'
        : 'an arm that should have run lacks counted spawns (see Arms)',
      v.complete,
    ],
    [
      'budget',
      b.bound_usd === null
        ? 'no budget is registered'
        : `${usd(b.spent_usd)} of ${bound(b.bound_usd)}, ${b.spawns} of ${b.bound_spawns} spawns: ${b.within === null ? 'cannot be checked' : b.within ? 'within' : 'over'}`,
      b.within,
    ],
    ['uniformity', uniformityText(v.uniformity), null],
    [
      'preregistered',
      `${v.preregistered}: ${v.preregistration.reason}`,
      v.preregistered === 'yes' ? true : v.preregistered === 'no' ? false : null,
    ],
  ];
  const git = v.preregistration.compared.length
    ? `<details><summary>The git evidence (${v.preregistration.compared.length} registration files)</summary>
${table(
  [
    { key: 'file', title: 'file' },
    { key: 'commit', title: 'commit' },
    { key: 'committed_at', title: 'committed' },
    { key: 'governs', title: 'first spawn it governs' },
    { key: 'order', title: 'order' },
  ],
  v.preregistration.compared as unknown as Row[],
)}
</details>`
    : '';
  return `<section class="verdict" aria-labelledby="${prefix}-verdict">
<h3 id="${prefix}-verdict">Verdict: ${v.holds ? badge('holds', 'ok') : badge('does not hold', 'bad')}</h3>
<p class="count">${esc(`${holding} of ${v.conjuncts.length} hold`)}</p>
${conjuncts}
<dl class="facts wide">${facts.map(([k, t, ok]) => `<div><dt>${esc(k)}</dt><dd>${ok === null ? '' : ok ? badge('yes', 'ok') : badge('no', 'bad')} ${esc(t)}</dd></div>`).join('')}</dl>
${v.reasons.length ? `<p class="why"><strong>Why not:</strong> ${v.reasons.map(bdi).join('; ')}</p>` : ''}
${git}
</section>`;
}

function armsSection(p: ProbeReport): string {
  const complete = new Map(p.verdict.completeness.map((c) => [String(c.arm), c]));
  const roles = new Map(p.roles.map((r) => [String(r.arm), r]));
  const rows = p.arms.map((a) => {
    const c = complete.get(String(a.arm));
    const role = roles.get(String(a.arm));
    const cells = armCells(a as never);
    const marks: string[] = [];
    if (c && Number(c.pilots) > 0) marks.push(badge(`pilot ×${c.pilots}`, 'note'));
    if (a.status === 'void') marks.push(badge('void', 'bad'));
    if (role?.replaces) marks.push(badge(`replaces ${role.replaces}`, 'note'));
    if (role?.conditional) marks.push(badge('conditional', 'note'));
    if (role?.addendum !== null && role?.addendum !== undefined) marks.push(badge(`addendum ${role.addendum}`, 'note'));
    if (a.status === 'unregistered') marks.push(badge('unregistered', 'bad'));
    // The completeness note says more only for an arm that is not complete; the arm's notes say the rest.
    if (c?.complete === false) marks.push(badge('incomplete', 'bad'));
    const notes = [...((a.notes as string[]) ?? []), ...(c?.complete === false && c.note ? [String(c.note)] : [])];
    return `<tr data-arm="${esc(a.arm)}"><th scope="row">${bdi(a.arm)}</th><td>${bdi(a.phase)}</td><td class="num">${esc(a.registered_n ?? '')}</td><td class="num">${esc(c?.counted ?? '')}</td><td class="num">${esc(a.n)}</td><td>${esc(a.status)} ${marks.join(' ')}</td><td>${bdi(cells.tools)}</td><td>${notes.map(bdi).join('; ')}</td></tr>`;
  });
  return `<section class="arms">
<h3>Arms</h3>
<p class="alt">Registered n against the spawns counted, with pilots, void arms, replacements and conditional arms marked as the addenda say.</p>
<div class="scroll"><table class="arms">
<thead><tr><th scope="col">arm</th><th scope="col">phase</th><th scope="col" class="num">registered n</th><th scope="col" class="num">counted</th><th scope="col" class="num">described</th><th scope="col">status</th><th scope="col">tools</th><th scope="col">notes</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>
</section>`;
}

function censusSection(p: ProbeReport): string {
  const cols: Col[] = [
    { key: 'seq', title: 'seq', right: true },
    { key: 'arm', title: 'arm' },
    { key: 'phase', title: 'phase' },
    { key: 'session', title: 'session' },
    { key: 'status', title: 'status' },
    { key: 'exit_code', title: 'exit', right: true },
    { key: 'tools', title: 'tools' },
    { key: 'artifacts', title: 'artifacts' },
    { key: 'markers', title: 'markers' },
    { key: 'skills', title: 'skills' },
    { key: 'note', title: 'note' },
  ];
  return `<section class="census">
<h3>Census</h3>
<p class="alt">One row per spawn, from the committed records. With script enabled, a header sorts and the box filters.</p>
${table(
  cols,
  p.census.map((r) => censusCells(r, false) as Row),
  ' class="census sortable"',
)}
</section>`;
}

function auditSection(p: ProbeReport): string {
  const { findings, files } = p.audit;
  const found = findings.length
    ? table(
        [
          { key: 'where', title: 'where' },
          { key: 'kind', title: 'kind' },
          { key: 'match', title: 'match (masked)' },
        ],
        findings.map((f) => ({ where: `${f.file}:${f.line}`, kind: f.kind, match: f.match })),
      )
    : `<p>${esc(`No home-directory path or secret in the probe's ${files} files.`)}</p>`;
  const warnings = forgeryWarnings(p.forgeable);
  const forgeable = warnings.length
    ? `<h4>Forgeable markers and artifacts</h4>\n<ul>${warnings.map((w) => `<li>${bdi(w)}</li>`).join('\n')}</ul>`
    : '';
  return `<section class="audit">
<h3>Audit</h3>
${found}
${forgeable}
</section>`;
}

export async function probeSection(p: ProbeReport, index: number): Promise<string> {
  const prefix = `p${index + 1}`;
  const charts = [
    toolsPerArmChart(p.arms),
    costByArmChart(p.cost.by_arm),
    costByModelChart(p.cost.by_model),
    skillResolutionChart(p.skills),
    spawnsOverTimeChart(p.spawns),
  ];
  const figures = await Promise.all(charts.map((c) => figure(c, prefix)));
  return `<article class="probe" id="${prefix}">
${header(p)}
${verdictSection(p, prefix)}
${armsSection(p)}
<section class="charts">
<h3>Charts</h3>
${figures.join('\n')}
</section>
${censusSection(p)}
${auditSection(p)}
</article>`;
}
