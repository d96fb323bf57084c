/**
 * The table references in DuckDB's syntax tree of a SELECT (json_serialize_sql, Database.parse),
 * each with the CTE names in its scope: what a registered file may read (analysis/registration.ts)
 * and which tables a query reads (tablesRead).
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** What json_serialize_sql returns: each statement's syntax tree, or DuckDB's error. */
export type ParsedSql = { error: false; statements: { node: unknown }[] } | { error: true; error_type: string; error_message: string };

export type Node = Record<string, unknown>;

/** A name as DuckDB compares identifiers: ASCII letters lowercased, and no other (JavaScript's toLowerCase makes U+212A, the Kelvin sign, a k). */
export const identifier = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());
export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The first value `visit` returns for a table reference of `node` (DuckDB's syntax tree), visited
 * with the CTE names in its scope: a CTE's body sees the CTEs before it (and, when it is recursive,
 * itself in the recursive half of its UNION, not in the first), the query after them sees them all,
 * as DuckDB binds them. Undefined when none did.
 */
export function findTableRef<T>(
  node: unknown,
  visit: (ref: Node, ctes: ReadonlySet<string>) => T | undefined,
  ctes: ReadonlySet<string> = new Set(),
): T | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findTableRef(item, visit, ctes);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  let scope = ctes;
  const map = isNode(node.cte_map) && Array.isArray(node.cte_map.map) ? (node.cte_map.map as Node[]) : [];
  if (map.length) {
    const seen = new Set(ctes);
    for (const entry of map) {
      const name = identifier(String(entry.key));
      const query = isNode(entry.value) ? entry.value.query : undefined;
      let found: T | undefined;
      if (isNode(query) && isNode(query.node) && query.node.type === 'RECURSIVE_CTE_NODE') {
        const { left, ...rest } = query.node;
        found = findTableRef(left, visit, seen) ?? findTableRef(rest, visit, new Set([...seen, name]));
      } else found = findTableRef(query, visit, seen);
      if (found !== undefined) return found;
      seen.add(name);
    }
    scope = seen;
  }
  // A table reference: expressions carry `class`, query nodes no `alias`.
  if (typeof node.type === 'string' && !('class' in node) && 'alias' in node && 'query_location' in node) {
    const found = visit(node, scope);
    if (found !== undefined) return found;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'cte_map') continue;
    const found = findTableRef(value, visit, scope);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A BASE_TABLE reference's catalog, schema and table, as written. */
export const tableName = (ref: Node): [string, string, string] =>
  [ref.catalog_name, ref.schema_name, ref.table_name].map((x) => String(x ?? '')) as [string, string, string];

/**
 * DuckDB's own parse of `sql` (json_serialize_sql): the syntax tree of each statement when all are
 * SELECTs, else DuckDB's error. It parses only: nothing is bound or run.
 */
export async function parseSql(con: DuckDBConnection, sql: string): Promise<ParsedSql> {
  const reader = await con.runAndReadAll('select json_serialize_sql($sql::VARCHAR)::VARCHAR', { sql });
  return JSON.parse(String(reader.getRows()[0]![0])) as ParsedSql;
}

/** The longest SQL tablesReadBy parses: a syntax tree is many times the size of its text. */
export const PARSED_AT_MOST = 64 * 1024;

/**
 * The tables `sql` reads (tablesRead) when it is one SELECT of at most PARSED_AT_MOST characters;
 * null otherwise, or when DuckDB cannot say (the trees of a file of many statements, or of one long
 * list, would take more time and memory than the query they are asked about). `statements`: how
 * many `sql` holds, when the caller has counted them.
 */
export async function tablesReadBy(con: DuckDBConnection, sql: string, statements?: number): Promise<string[] | null> {
  if (sql.length > PARSED_AT_MOST) return null;
  try {
    if ((statements ?? (await con.extractStatements(sql)).count) !== 1) return null;
    const parsed = await parseSql(con, sql);
    return parsed.error ? null : tablesRead(parsed.statements);
  } catch {
    return null;
  }
}

/** The tables of this database (unqualified or in `main`, not a CTE) that a syntax tree reads, lowercased and sorted. */
export function tablesRead(tree: unknown): string[] {
  const read = new Set<string>();
  findTableRef(tree, (ref, ctes) => {
    if (ref.type !== 'BASE_TABLE') return undefined;
    const [catalog, schema, table] = tableName(ref);
    const name = identifier(table);
    if (catalog === '' && (schema === '' ? !ctes.has(name) : identifier(schema) === 'main')) read.add(name);
    return undefined;
  });
  return [...read].sort();
}
