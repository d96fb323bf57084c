/**
 * `report`'s page: one self-contained HTML file (inline CSS, inline SVG charts, a small optional
 * script), laid out from rows the facade gathered. Every text that came from the evidence is
 * escaped: probe, arm, tool and skill names are written by whoever made the evidence. Nothing in
 * the page names another file or any address, and nothing in it reads a clock.
 */
import { createHash } from 'node:crypto';
import { perDayChart, toolsPerProjectChart, topSkillsChart } from './charts-sessions.js';
import { bdi, type Col, esc, figure, type ReportInput, table, type TranscriptReport } from './html-parts.js';
import { probeSection } from './html-probe.js';
import { CSS, SCRIPT } from './html-style.js';

export type { ProbeReport, ReportInput, TranscriptReport } from './html-parts.js';
export { esc } from './html-parts.js';
export { loadChartEngines } from './chart-svg.js';

/** The marker a report's last line carries: what `report` looks for before it overwrites a file. */
export const REPORT_SEAL = /\n<!-- omg-evidence:report sha256=([0-9a-f]{64}) -->\n$/;

/** Whether `text` is a report as `report` wrote it: sealed, and not changed since. */
export function isOwnReport(text: string): boolean {
  const m = REPORT_SEAL.exec(text);
  return m !== null && sha256(text.slice(0, m.index + 1)) === m[1];
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function transcriptSection(t: TranscriptReport): Promise<string> {
  const charts = [perDayChart(t.usage, 'tokens'), perDayChart(t.usage, 'cost'), toolsPerProjectChart(t.tools), topSkillsChart(t.skills)];
  const figures = await Promise.all(charts.map((c) => figure(c, 't')));
  const sessionCols: Col[] = [
    { key: 'session_id', title: 'session' },
    { key: 'project', title: 'project' },
    { key: 'first_timestamp', title: 'started (UTC)' },
    { key: 'minutes', title: 'minutes', right: true },
    { key: 'responses', title: 'responses', right: true },
    { key: 'total_tokens', title: 'tokens', right: true },
    { key: 'cost_usd', title: 'cost', right: true, money: true },
  ];
  return `<article class="transcripts" id="transcripts">
<header><h2>Sessions</h2>
<p>${esc(`${t.files} session files read from `)}${bdi(t.source)}.</p></header>
<section class="charts">
${figures.join('\n')}
</section>
<section class="sessions">
<h3>Longest sessions</h3>
${table(sessionCols, t.longest)}
<h3>Costliest sessions</h3>
${table(sessionCols, t.costliest)}
</section>
</article>`;
}

/** The whole page, sealed with the hash `isOwnReport` checks. */
export async function reportHtml(input: ReportInput): Promise<string> {
  const probes = await Promise.all(input.probes.map((p, i) => probeSection(p, i)));
  const transcripts = input.transcripts ? await transcriptSection(input.transcripts) : '';
  const names = input.probes.map((p) => p.probe);
  const title = names.length ? `Probe report: ${names.join(', ')}` : 'Claude Code sessions';
  const nav =
    names.length > 1 || (names.length && input.transcripts)
      ? `<nav><ul>${names.map((n, i) => `<li><a href="#p${i + 1}">${bdi(n)}</a></li>`).join('')}${input.transcripts ? '<li><a href="#transcripts">Sessions</a></li>' : ''}</ul></nav>`
      : '';
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="omg-evidence ${esc(input.version)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${names.length ? `Probe report: ${names.map(bdi).join(', ')}` : esc(title)}</h1>
${nav}
${probes.join('\n')}
${transcripts}
<footer>Made by omg-evidence ${esc(input.version)} from the committed evidence; every number comes from its queries.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
  return `${page}<!-- omg-evidence:report sha256=${sha256(page)} -->\n`;
}
