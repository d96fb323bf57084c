/** A query's result (the user's SQL, or a named query in a document) in the tabular formats. */
import { cellOf, tabulate, type Row, type TableStyle, type TabularFormat } from './formats.js';

/** Numeric DuckDB types, right-aligned. */
export const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

export function formatResult(columns: string[], types: string[], rows: Row[], format: TabularFormat, style: TableStyle = {}): string {
  const cols = columns.map((c, i) => ({ key: c, right: NUMERIC.test(types[i]!) }));
  return tabulate(format, cols, rows, { cells: (r) => Object.fromEntries(columns.map((c) => [c, cellOf(r[c])])), style });
}
