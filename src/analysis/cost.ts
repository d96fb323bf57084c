/**
 * What each probe spent, gathered from queries/cost.sql, cost_by_arm.sql and cost_by_model.sql:
 * the total against the registered budget, and the rows by arm and by model.
 */
import type { CostReport, Row } from '../base/shapes.js';
import type { Result } from '../db/database.js';

export type { CostReport } from '../base/shapes.js';

/** What runs the named queries: the opened evidence. */
export interface QueryRunner {
  query(name: string): Promise<Result>;
}

/** One report per probe, in the order of queries/cost.sql; by_arm and by_model without their probe column. */
export async function costReports(ev: QueryRunner): Promise<CostReport[]> {
  const [totals, arms, models] = await Promise.all(['cost', 'cost_by_arm', 'cost_by_model'].map(async (q) => (await ev.query(q)).rows));
  return totals!.map((t) => {
    const mine = (rows: Row[]) => rows.filter((r) => r.probe === t.probe).map(({ probe: _p, ...rest }) => rest);
    return {
      probe: String(t.probe),
      total_cost_usd: t.total_cost_usd as number,
      spawns: t.spawns as number,
      envelopes: t.envelopes as number,
      unpriced: t.unpriced as number,
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
