/**
 * The library's tables: rows as arquero tables. arquero loads on first use, so the CLI, which
 * never calls this, does not load it at start-up.
 */
import type { ColumnTable } from 'arquero';

/** Rows as an arquero table, columns in the order given (or of the first row). */
export async function table(rows: Record<string, unknown>[], columns?: string[]): Promise<ColumnTable> {
  const aq = await import('arquero');
  const names = columns ?? Object.keys(rows[0] ?? {});
  return aq.table(Object.fromEntries(names.map((c) => [c, rows.map((r) => r[c])])));
}
