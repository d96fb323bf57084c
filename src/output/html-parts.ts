/** What every part of the report page is made of: escaped text, tables, badges and charts as figures. */
import type { CostReport, Row } from '../base/shapes.js';
import type { Finding } from './audit.js';
import type { CensusRow, ForgeableRow } from './census-block.js';
import { isBucket } from './chart-keys.js';
import { chartSvg } from './chart-svg.js';
import type { Chart } from './charts.js';
import { dollars } from './formats.js';
import { displayed, replaceChars } from './shown.js';
import type { Verdict } from './verdict.js';

/** Everything one probe's part of the page shows, as the facade gathers it. */
export interface ProbeReport {
  probe: string;
  /** queries/probe_summary.sql's row. */
  summary: Row;
  verdict: Verdict;
  /** queries/arms.sql. */
  arms: Row[];
  /** queries/arm_roles.sql. */
  roles: Row[];
  cost: CostReport;
  /** queries/skill_resolution.sql. */
  skills: Row[];
  /** queries/spawn_times.sql. */
  spawns: Row[];
  census: CensusRow[];
  audit: { files: number; findings: Finding[] };
  /** The K-FM lesson: markers and artifacts the spawns' own calls could have produced (queries/forgeable.sql). */
  forgeable: ForgeableRow[];
}

/** The transcripts' part of the page. */
export interface TranscriptReport {
  /** Where the sessions were read, as shown to the user. */
  source: string;
  files: number;
  /** queries/usage.sql, daily in UTC, with the breakdown by model. */
  usage: Row[];
  /** queries/tools_by_project.sql. */
  tools: Row[];
  /** queries/top_skills.sql. */
  skills: Row[];
  /** queries/top_sessions.sql, by duration and by cost. */
  longest: Row[];
  costliest: Row[];
}

export interface ReportInput {
  probes: ProbeReport[];
  transcripts?: TranscriptReport;
  /** omg-evidence's version, for the generator line. */
  version: string;
}

/**
 * Text as HTML: safe in element content and in quoted attribute values; shown as the terminal shows it
 * (displayed): controls as pictures, an override or U+FFFF as its code point, so K-⟨U+202E⟩MF is not K-FM.
 */
export function esc(value: unknown): string {
  // In parts when long (replaceChars): a value of tens of millions of & had stopped V8.
  return replaceChars(
    displayed(String(value ?? '')),
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Text from the evidence, where it sits in prose or a cell: isolated, so that a name in a right-to-left
 * script turns only itself, never the page's text around it (an override is shown as its code point).
 */
export const bdi = (value: unknown): string => `<bdi>${esc(value)}</bdi>`;

export interface Col {
  key: string;
  title: string;
  right?: boolean;
  money?: boolean;
}

function cellText(v: unknown, money = false): string {
  if (v === null || v === undefined) return '';
  if (money && (typeof v === 'number' || typeof v === 'string')) return dollars(v);
  if (typeof v === 'number') return v.toLocaleString('en-US', { maximumFractionDigits: 6 });
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  // A list of words (a census cell) reads as the terminal table shows it; other values as JSON.
  if (isWords(v)) return v.join(' ');
  if (Array.isArray(v) || typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const isWords = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A cell's text: numbers and yes/no as they are, text (evidence's words) isolated, a chart's bucket in italics (no name looks like it). */
function cell(v: unknown, money = false): string {
  if (isBucket(v)) return `<em>${esc(v.bucket)}</em>`;
  const text = cellText(v, money);
  return (typeof v === 'string' || isWords(v)) && !money ? bdi(text) : esc(text);
}

export function table(columns: Col[], rows: Row[], attrs = ''): string {
  const head = columns.map((c) => `<th scope="col"${c.right ? ' class="num"' : ''}>${esc(c.title)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${columns.map((c) => `<td${c.right ? ' class="num"' : ''}>${cell(r[c.key], c.money)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="scroll"><table${attrs}>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

/** A chart: its SVG inline, its title as the caption, and its numbers in a table beside it. */
export async function figure(chart: Chart, prefix: string): Promise<string> {
  const svg = await chartSvg(chart);
  const id = `${prefix}-${chart.id}`;
  // The SVG is an image with a name and a description a screen reader reads.
  const labelled = svg.replace(/^<svg /, `<svg role="img" aria-labelledby="${id}-t" aria-describedby="${id}-d" `);
  // A chart whose every value is null draws no empty frame: it says so, as one with no row does.
  const none = chart.table.rows.length === 0 ? 'no row' : 'no row has a value';
  return `<figure class="chart" id="${id}">
<figcaption class="vh" id="${id}-t">${esc(chart.title)}</figcaption>
${chart.empty ? `<p class="none">Nothing to draw: ${none}.</p>` : labelled}
<p class="alt" id="${id}-d">${esc(chart.description)}</p>
<details><summary>The numbers</summary>
${table(chart.table.columns, chart.table.rows)}
</details>
</figure>`;
}

export const badge = (text: string, kind: string) => `<span class="badge ${kind}">${bdi(text)}</span>`;
