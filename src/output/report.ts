/**
 * Multi-part reports (verdict, cost): a heading, lines of prose and tables, laid out for a terminal
 * (table) or for a document (markdown). Values arrive formatted; this module only arranges them.
 */
import { dollars, tabulate, type Cell, type Column, type TableStyle } from './formats.js';
import { displayed, markdownText } from './shown.js';
import type { Budget } from '../base/shapes.js';

export type Part =
  | { kind: 'heading'; text: string }
  | { kind: 'line'; label?: string; text: string }
  | { kind: 'table'; columns: Column[]; rows: Record<string, Cell>[] };

export function formatReport(parts: Part[], format: 'table' | 'markdown', style: TableStyle = {}): string {
  const out: string[] = [];
  // In a document a heading or a line shows its text as a table's cell does (markdownText), evidence and all:
  // a probe named "x: HOLDS <details>" had hidden "DOES NOT HOLD", a `<!--` the lines after it.
  const one = (s: string) => (format === 'markdown' ? markdownText(s.replace(/\r\n?/g, '\n')) : displayed(s));
  for (const p of parts) {
    // A heading's closing #s are not shown: a probe named "x ##" keeps them.
    if (p.kind === 'heading')
      out.push(format === 'markdown' ? `### ${one(p.text).replace(/#+$/, (m) => m.replace(/#/g, '\\#'))}\n` : `${one(p.text)}\n`);
    else if (p.kind === 'line') {
      const label = p.label ? (format === 'markdown' ? `**${p.label}:** ` : `${p.label}: `) : '';
      out.push(`${label}${one(p.text)}\n`);
    } else if (p.rows.length) out.push(tabulate(format, p.columns, p.rows, { cells: (r) => r, style }));
  }
  return out.join('\n');
}

/** A ratio as a percentage for display: 0.2051 → "20.51%"; one a double cannot hold times 100 keeps its digits (8.33e+308%). */
export function percent(ratio: number | null): string {
  if (ratio === null) return '?';
  if (Number.isFinite(ratio * 100) || !Number.isFinite(ratio)) return `${Number((ratio * 100).toFixed(2))}%`;
  const [digits, exponent] = ratio.toExponential(2).split('e');
  return `${digits}e+${Number(exponent) + 2}%`;
}

/** A budget's figures against its bounds, as the verdict and the report state them: "$0.5000 of $1 (50.00%), 3 of 4 spawns (75.00%)". */
export function budgetFigures(b: Budget): string {
  return `${usd(b.spent_usd)} of ${bound(b.bound_usd!)}${shareOf(b.share_usd)}, ${b.spawns} of ${b.bound_spawns} spawns${shareOf(b.share_spawns)}`;
}

/** " (20.51%)" after a figure and its bound; nothing for a bound of 0, of which there is no share (NULL). */
export function shareOf(ratio: number | null): string {
  return ratio === null ? '' : ` (${percent(ratio)})`;
}

/** Dollars spent, for display: 2.4616 → "$2.4616", 0.145952 → "$0.1460"; unknown is "?". */
export function usd(value: number | null): string {
  return value === null ? '?' : dollars(value);
}

/** A registered bound as it was registered (the ADR writes "$12"), not as an amount measured to the 1/10,000. */
export function bound(value: number): string {
  return `$${value}`;
}
