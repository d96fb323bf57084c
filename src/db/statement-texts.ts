/**
 * The text of the statements in SQL of several, as DuckDB splits it (its statement extraction
 * gives no text): to wrap the last in a cast, and to check a statement's plan (refusals.ts).
 */
import type { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';

/**
 * The last statement of `sql` (`n` of them), a SELECT, wrapped so that DuckDB casts each column
 * to VARCHAR; undefined when it cannot be (DuckDB then runs it as it is). DuckDB finds the
 * statement: it is the text after the last semicolon that leaves one statement after it and
 * n - 1 before it (a semicolon inside a string or comment does not); one with all n before it
 * has only blanks or comments after it.
 */
export async function textPrepared(
  con: DuckDBConnection,
  sql: string,
  n: number,
  check: () => void,
): Promise<DuckDBPreparedStatement | undefined> {
  // Past the deadline, whatever DuckDB answered, `check` throws: an interrupt is never taken for a failure to parse.
  const count = async (text: string) => {
    const c = await con.extractStatements(text).then(
      (e) => e.count,
      () => -1,
    );
    check();
    return c;
  };
  let end = sql.length;
  let last: string | undefined;
  for (let at = sql.lastIndexOf(';'); ; at = at > 0 ? sql.lastIndexOf(';', at - 1) : -1) {
    if (at < 0) {
      if (n === 1) last = sql.slice(0, end);
      break;
    }
    const before = await count(sql.slice(0, at + 1));
    if (before === n) {
      end = at; // only blanks or comments after it: the last statement ends here
      continue;
    }
    if (before === n - 1 && (await count(sql.slice(at + 1, end))) === 1) {
      last = sql.slice(at + 1, end);
      break;
    }
  }
  if (last === undefined) return undefined;
  const prepared = await con.prepare(`select cast(columns(*) as varchar) from (${last}\n)`).catch(() => undefined);
  check();
  return prepared;
}

/**
 * The text of each of the `n` statements of `sql`, as DuckDB splits it: each ends at a semicolon
 * that leaves one statement before it (since the last) and the rest after it (a semicolon in a
 * string or a comment does not); undefined when they cannot be found so. Each try parses the rest
 * of the text, so the caller bounds its length.
 */
export async function statementTexts(con: DuckDBConnection, sql: string, n: number, check: () => void): Promise<string[] | undefined> {
  const count = (text: string) =>
    con.extractStatements(text).then(
      (e) => e.count,
      () => -1,
    );
  const texts: string[] = [];
  let start = 0;
  for (let at = sql.indexOf(';'); at >= 0 && texts.length < n - 1; at = sql.indexOf(';', at + 1)) {
    const head = await count(sql.slice(start, at + 1));
    check();
    if (head !== 1 || (await count(sql.slice(at + 1))) !== n - texts.length - 1) continue;
    check();
    texts.push(sql.slice(start, at));
    start = at + 1;
  }
  texts.push(sql.slice(start));
  return texts.length === n ? texts : undefined;
}
