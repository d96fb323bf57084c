/**
 * What the user's SQL may not do in a sandbox that the locked configuration does not stop: a
 * PRAGMA that sets something, and a table function that changes DuckDB's settings, its log or its
 * files (CALL enable_logging(...) reaches every connection, and can write to stdout or a file).
 * DuckDB decides: the statement's type once prepared, and the table functions in its plan.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { QueryError } from '../base/errors.js';
import { identifier, isNode } from './table-refs.js';

/** Table functions the user's SQL may not call, each with what it does. test/sql-refusals.test.ts holds every other one DuckDB has to a list of those that only read. */
export const REFUSED_FUNCTIONS: Readonly<Record<string, string>> = {
  enable_logging: "turns DuckDB's log on, for every connection (it can write to stdout or a file)",
  disable_logging: "turns DuckDB's log off, for every connection",
  truncate_duckdb_logs: "empties DuckDB's log, for every connection",
  enable_profiling: 'turns profiling on (it can print to stdout or write a file)',
  disable_profiling: 'turns profiling off',
  enable_peg_parser: 'changes the parser DuckDB uses',
  disable_peg_parser: 'changes the parser DuckDB uses',
  check_peg_parser: "runs DuckDB's experimental parser",
  checkpoint: 'writes the database file',
  force_checkpoint: 'writes the database file',
  arrow_scan: 'reads memory at the addresses it is given',
  arrow_scan_dumb: 'reads memory at the addresses it is given',
  json_execute_serialized_sql: 'runs a plan given as text, which is not checked',
};

/** Names whose mention makes a statement's plan worth checking: the refused ones, and query(), which runs SQL made from text. */
const WATCHED = [...Object.keys(REFUSED_FUNCTIONS), 'query'];

/**
 * Whether `sql` may call a refused function: it names one, or query(), anywhere (a comment or a
 * string included, as DuckDB compares names: ASCII letters in either case). Only a cheap gate for
 * refusedCall, which decides: SQL that names none cannot reach one.
 */
export const mayCallRefused = (sql: string): boolean => {
  const lower = identifier(sql);
  return WATCHED.some((w) => lower.includes(w));
};

/** Refuse SQL holding a NUL byte, named by its line and column: DuckDB reads the text as a C string, and would end it there. */
export function refuseNul(sql: string, source: string): void {
  const at = sql.indexOf('\0');
  if (at < 0) return;
  const before = sql.slice(0, at).split('\n');
  throw new QueryError(
    `${source}:${before.length}:${before.at(-1)!.length + 1}: holds a NUL byte, where DuckDB would end the query`,
    'remove it: the text after it would not run',
  );
}

/** The error for statement `i`, a PRAGMA that sets something (one that reads prepares as a SELECT). */
export const pragmaError = (source: string, i: number) =>
  new QueryError(
    `${source}: statement ${i + 1} is a PRAGMA that changes how DuckDB runs, which SQL here may not do`,
    'leave it out: a PRAGMA that reads (table_info, show_tables, version, …) runs',
  );

/**
 * Refuse statement `i` (`text`, one statement) when DuckDB's plan of it (EXPLAIN, which binds
 * and plans but runs nothing) scans a refused table function, through a view, a macro or query()
 * as well; or when its plan cannot be had, as the statement then cannot be checked.
 */
export async function refuseCalls(con: DuckDBConnection, text: string, source: string, i: number): Promise<void> {
  let plan: unknown[];
  try {
    // prepare() takes one statement only: the text cannot add a second.
    const reader = await (await con.prepare(`EXPLAIN (FORMAT JSON) ${text}\n`)).runAndReadAll();
    plan = reader.getRows().map((r) => JSON.parse(String(r[1])));
  } catch (err) {
    throw new QueryError(
      `${source}: statement ${i + 1} names a function SQL here may not call (${WATCHED.join(', ')}), and DuckDB cannot show its plan to check it does not: ${(err as Error).message}`,
      'leave the name out, or run the statement on its own',
      { cause: err },
    );
  }
  const name = scanned(plan);
  if (name !== undefined) {
    throw new QueryError(
      `${source}: statement ${i + 1} calls ${name}(), which ${REFUSED_FUNCTIONS[name]}`,
      'leave it out: SQL here reads the evidence, and changes nothing beyond its own transaction',
    );
  }
}

/** The first refused function an EXPLAIN (FORMAT JSON) plan scans (an operator's name, or its Function). */
function scanned(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = scanned(child);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  const info = isNode(node.extra_info) ? node.extra_info : {};
  for (const name of [node.name, info.Function]) {
    const lower = typeof name === 'string' ? identifier(name) : '';
    if (Object.hasOwn(REFUSED_FUNCTIONS, lower)) return lower;
  }
  return scanned(node.children);
}
