/**
 * The fast read of a query's result (Database.select): all its rows as one JSON text from DuckDB,
 * converted and parsed once, where the columns' types allow JSON to carry them exactly.
 */
import { type DuckDBConnection, type DuckDBType, StatementType } from '@duckdb/node-api';
import type { Params } from './sql-text.js';
import { jsonExact, type Result, type Row, UNSAFE_INTEGER } from './values.js';

/** The result of SELECT `sql`, read as one JSON text; null when it is no SELECT or JSON would not carry it exactly. */
export async function selectViaJson(con: DuckDBConnection, sql: string, params?: Params): Promise<Result | null> {
  let columns: string[];
  let types: DuckDBType[];
  try {
    const prepared = await con.prepare(sql);
    if (prepared.statementType !== StatementType.SELECT) return null;
    columns = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
    types = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnType(i));
  } catch {
    return null; // several statements, or an error that query() reports
  }
  if (columns.length === 0 || new Set(columns).size !== columns.length || !types.every(jsonExact)) return null;
  // All the rows as one JSON text, one text to convert and parse rather than one per row. A window
  // with an empty OVER keeps the order of the rows it reads (DuckDB's "Order Preservation"), so
  // row_number() over () numbers them in the query's order, and string_agg joins them in it.
  let text: string | null;
  try {
    const reader = await con.runAndReadAll(
      `select string_agg(j, ',' order by n) from (select to_json(_q)::VARCHAR as j, row_number() over () as n from (${sql}\n) as _q)`,
      params as never,
    );
    text = reader.getColumns()[0]?.[0] as string | null;
  } catch {
    return null; // a statement that cannot be a subquery (DESCRIBE, SHOW, …), or an error that query() reports
  }
  if (text !== null && UNSAFE_INTEGER.test(text)) return null;
  return { columns, types: types.map((t) => t.toString()), rows: text === null ? [] : (JSON.parse(`[${text}]`) as Row[]) };
}
