/** What a probe spent (analysis/cost.ts gathers it), as a report: the total, by arm and by model. */
import type { CostReport } from '../base/shapes.js';
import { dollars, toJson, type Row, type TableStyle } from './formats.js';
import { bound, formatReport, percent, usd, type Part } from './report.js';

export type CostFormat = 'table' | 'markdown' | 'json';

export function costParts(c: CostReport): Part[] {
  const b = c.budget;
  // Spawns of unknown cost are left out of the total: what it says is what is known to be spent, and
  // with none known, that it is unknown ("at least $0" says nothing).
  const unknown = c.unpriced > 0 && c.total_cost_usd === 0;
  const least = c.unpriced ? 'at least ' : '';
  const spent = unknown ? 'unknown' : `${least}${usd(c.total_cost_usd)}`;
  const share = unknown ? 'an unknown share' : `${least}${percent(b.share_usd)}`;
  return [
    { kind: 'heading', text: `Cost of ${c.probe}` },
    {
      kind: 'line',
      label: 'Spent',
      text:
        `${spent} over ${c.spawns} spawns (${c.envelopes} with an envelope${c.unpriced ? `; ${c.unpriced} that ran with no total_cost_usd: not counted` : ''})` +
        (b.usd === null
          ? '; no budget is registered'
          : `: ${b.share_usd === null ? 'against' : `${share} of`} the ${bound(b.usd)} bound, ${b.share_spawns === null ? 'against' : `${percent(b.share_spawns)} of`} the ${b.spawns} spawns`),
    },
    {
      kind: 'table',
      columns: [{ key: 'arm' }, { key: 'spawns', right: true }, { key: 'cost_usd', right: true, money: true }],
      rows: c.by_arm as Record<string, string | number>[],
    },
    {
      kind: 'table',
      columns: [
        { key: 'model' },
        { key: 'spawns', right: true },
        { key: 'cost_usd', right: true, money: true },
        { key: 'input_tokens', right: true },
        { key: 'output_tokens', right: true },
        { key: 'cache_read_input_tokens', title: 'cache_read', right: true },
        { key: 'cache_creation_input_tokens', title: 'cache_creation', right: true },
      ],
      rows: c.by_model as Record<string, string | number>[],
    },
  ];
}

export function formatCost(cs: CostReport[], format: CostFormat, style: TableStyle = {}): string {
  if (format === 'json') return toJson(cs.length === 1 ? cs[0] : cs);
  return cs.map((c) => formatReport(costParts(c), format, style)).join('\n');
}

/**
 * A warning for each spawn whose transcript costs more than its envelope's total_cost_usd
 * (queries/spawns_over_envelope.sql): the total is too small, and the budget counts the larger.
 */
export function overEnvelopeWarnings(rows: Row[]): string[] {
  return rows.map(
    (r) =>
      `${r.probe} spawn ${r.seq} (${r.arm}, ${String(r.session_id).slice(0, 8)}): its transcript's priced responses cost ${dollars(r.transcript_cost_usd as string, 6)}, more than its envelope's total_cost_usd ${dollars(r.envelope_cost_usd as number, 6)}: it spent at least ${dollars(r.transcript_cost_usd as string, 6)}, and the budget counts that`,
  );
}
