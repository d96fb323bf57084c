/**
 * `omg-evidence cost [PROBE...]`: what was spent, by arm and by model, against the registered
 * budget (queries/cost.sql, cost_by_arm.sql, cost_by_model.sql).
 */
import { Command } from 'commander';
import type { Row } from '../../evidence.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { toJson, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { chosenFormat, dbOption, formatOption, tableStyle, wideOption } from '../options.js';
import { bound, layout, percent, usd, type Part } from '../../output/report.js';

const FORMATS = ['table', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

export interface CostReport {
  probe: string;
  total_cost_usd: number;
  spawns: number;
  envelopes: number;
  budget: { usd: number | null; spawns: number | null; share_usd: number | null; share_spawns: number | null };
  by_arm: Row[];
  by_model: Row[];
}

export async function costReports(ev: Evidence): Promise<CostReport[]> {
  const [totals, arms, models] = await Promise.all(['cost', 'cost_by_arm', 'cost_by_model'].map(async (q) => (await ev.query(q)).rows));
  return totals!.map((t) => {
    const mine = (rows: Row[]) => rows.filter((r) => r.probe === t.probe).map(({ probe: _p, ...rest }) => rest);
    return {
      probe: String(t.probe),
      total_cost_usd: t.total_cost_usd as number,
      spawns: t.spawns as number,
      envelopes: t.envelopes as number,
      budget: {
        usd: t.budget_usd as number | null,
        spawns: t.budget_spawns as number | null,
        share_usd: t.share_usd as number | null,
        share_spawns: t.share_spawns as number | null,
      },
      by_arm: mine(arms!),
      by_model: mine(models!),
    };
  });
}

export function costParts(c: CostReport): Part[] {
  const b = c.budget;
  return [
    { kind: 'heading', text: `Cost of ${c.probe}` },
    {
      kind: 'line',
      label: 'Spent',
      text:
        `${usd(c.total_cost_usd)} over ${c.spawns} spawns (${c.envelopes} with an envelope)` +
        (b.usd === null
          ? '; no budget is registered'
          : `: ${percent(b.share_usd)} of the ${bound(b.usd)} bound, ${percent(b.share_spawns)} of the ${b.spawns} spawns`),
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

export function formatCost(cs: CostReport[], format: Format, style: TableStyle = {}): string {
  if (format === 'json') return toJson(cs.length === 1 ? cs[0] : cs);
  return cs.map((c) => layout(costParts(c), format, style)).join('\n');
}

export function makeCostCommand(io: IO): Command {
  return new Command('cost')
    .description('what the probe spent, by arm and by model, against its registered budget')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(FORMATS))
    .addOption(wideOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      await withEvidence(Evidence.open(probes, { onWarning: (w) => warn(io, w), db: opts.db }), async (ev) => {
        io.stdout(formatCost(await costReports(ev), format, tableStyle(io, opts.wide)));
      });
    });
}
