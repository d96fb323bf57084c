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

/** `T` with the row lists named by `K` as arquero tables. */
export type Tabled<T, K extends keyof T> = Omit<T, K> & { [P in K]: ColumnTable };

/** `value` with each row list named in `keys` made an arquero table (`table`); the rest as it is. */
export async function tabled<T extends object, K extends keyof T>(value: T, keys: K[]): Promise<Tabled<T, K>> {
  const tables = await Promise.all(keys.map(async (k) => [k, await table(value[k] as Record<string, unknown>[])] as const));
  return { ...value, ...Object.fromEntries(tables) } as Tabled<T, K>;
}
