/**
 * The shapes that cross layers as plain data: a row as DuckDB's results hand it on, and the parts
 * of the reports analysis/ computes and output/ lays out. Declared once here, since neither of
 * those two may import the other.
 */

/** One row: column name to plain value. */
export type Row = Record<string, unknown>;

/** A registered conjunct as its check evaluated it. */
export interface Conjunct {
  n: number;
  required: string;
  result: string;
  holds: boolean;
}

/** What a probe spent against its registered budget (queries/budget.sql). */
export interface Budget {
  spent_usd: number;
  spawns: number;
  /** Spawns whose envelope gives no total_cost_usd: an unknown cost, left out of spent_usd. */
  unpriced: number;
  bound_usd: number | null;
  bound_spawns: number | null;
  share_usd: number | null;
  share_spawns: number | null;
  within: boolean | null;
}

/** One probe's spending: the total against the budget, and the rows by arm and by model. */
export interface CostReport {
  probe: string;
  total_cost_usd: number;
  spawns: number;
  envelopes: number;
  /** Spawns whose envelope gives no total_cost_usd: an unknown cost, left out of total_cost_usd. */
  unpriced: number;
  budget: { usd: number | null; spawns: number | null; share_usd: number | null; share_spawns: number | null };
  by_arm: Row[];
  by_model: Row[];
}

/** A size as DuckDB takes it for memory_limit: a number and a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB). */
export const MEMORY_SIZE = /^\d+(\.\d+)?\s*(B|[KMGT]i?B)$/i;

/** A number as a person writes one, in decimal digits: Number() also takes 0x10, 1e3 and ' 5'. */
export const DECIMAL_TEXT = /^(\d+(\.\d*)?|\.\d+)$/;
