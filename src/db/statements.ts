/**
 * SQL that omg-evidence did not write (the user's, in a sandbox): run statement by statement and
 * streamed a chunk at a time, within a timeout, refusing a statement that would end the sandbox's
 * transaction.
 */
import { type DuckDBConnection, type DuckDBExtractedStatements, ResultReturnType, StatementType } from '@duckdb/node-api';
import { OmgError, QueryError } from '../base/errors.js';
import { PARSED_AT_MOST, tablesReadBy } from './table-refs.js';
import { mayCallRefused, pragmaError, refuseCalls, refuseNul } from './refusals.js';
import { statementTexts, textPrepared } from './statement-texts.js';
import { deadline } from '../base/timer.js';
import { chunkRows, deduplicated, protoName, type Result, type Row } from './values.js';

/** The most rows handed to a sink at once: DuckDB's chunks are ~2,048. */
const BATCH_ROWS = 64;

/** Bounds on the user's SQL. */
export interface Limits {
  /** Seconds after which the query is interrupted; 0 or absent: none. */
  timeout?: number;
  /** What the timeout is called where it is set (`--timeout`), for the message. */
  timeoutName?: string;
  /** What the memory limit is called where it is set (`--memory-limit`), for the hint. */
  memoryName?: string;
}

/**
 * Where streamStatements hands a result: its columns, then its rows a few at a time, each value
 * as `mode` asks: `text`, DuckDB's text form (null for NULL); `json`, the value's JSON text
 * (jsonText); `plain`, what query() gives.
 */
export interface RowSink {
  mode: 'text' | 'json' | 'plain';
  /** Told the tables the SQL reads (tablesReadBy) before it runs. */
  tables?(read: string[]): void | Promise<void>;
  columns(columns: { name: string; type: string }[]): void | Promise<void>;
  rows(rows: unknown[][]): void | Promise<void>;
}

/** The error for SQL, run in a sandbox, whose statement `i` would end the sandbox's transaction. */
export function transactionError(source: string, i: number): QueryError {
  return new QueryError(
    `${source}: statement ${i + 1} begins, commits or rolls back a transaction`,
    'leave it out: your SQL runs in a transaction of its own, which omg-evidence rolls back',
  );
}

/**
 * Run the statements of `sql` one after the other, and read the last one's rows (the user's SQL,
 * in a sandbox), gathered whole: the library's sql(). `maxRows` bounds what is gathered.
 */
export async function gatherStatements(
  con: DuckDBConnection,
  sql: string,
  source = 'query',
  limits: Limits & { maxRows?: number } = {},
): Promise<Result> {
  let columns: string[] = [];
  let types: string[] = [];
  const rows: Row[] = [];
  await streamStatements(
    con,
    sql,
    source,
    {
      mode: 'plain',
      columns: (cols) => {
        columns = cols.map((c) => c.name);
        types = cols.map((c) => c.type);
      },
      rows: (chunk) => {
        if (limits.maxRows !== undefined && rows.length + chunk.length > limits.maxRows) {
          throw new QueryError(`${source}: returns more than ${limits.maxRows} rows`, 'add a LIMIT, or raise maxRows');
        }
        for (const r of chunk) rows.push(Object.fromEntries(columns.map((c, i) => [c, r[i]])));
      },
    },
    limits,
  );
  return { columns, types, rows };
}

/**
 * Run the statements of `sql` one after the other and hand the last one's rows to `sink`, BATCH_ROWS
 * at a time, as DuckDB makes them: the result is never held whole. Every
 * statement before the last must be one whose result is DuckDB's status line (CREATE, INSERT,
 * SET, …): one that returns rows is refused, as its rows would print nowhere. A statement that
 * begins, commits or rolls back a transaction is refused before it runs: it would end the
 * sandbox's own, and what follows would last. With `limits.timeout` (seconds), the query is
 * interrupted once it has run that long.
 */
export async function streamStatements(
  con: DuckDBConnection,
  sql: string,
  source: string,
  sink: RowSink,
  limits: Limits = {},
): Promise<void> {
  refuseNul(sql, source);
  // Armed before DuckDB parses anything: parsing and planning do not heed an interrupt, so the flag
  // is checked whenever DuckDB returns.
  let interrupted = false;
  const seconds = limits.timeout ?? 0;
  const limit = deadline(seconds > 0 ? seconds * 1000 : undefined, () => {
    interrupted = true;
    con.interrupt();
  });
  const fail = (err: unknown): never => {
    if (err instanceof OmgError) throw err;
    const message = (err as Error).message;
    // JavaScript's own limit, met making a row's text, not DuckDB's error: said as what it is.
    if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') {
      throw new QueryError(
        `${source}: a row is too long to print (${message})`,
        'select less of each row: leave out a column, or take part of a value (substr)',
        { cause: err },
      );
    }
    if (interrupted) {
      throw new QueryError(
        `${source}: query interrupted after ${seconds} s (${limits.timeoutName ?? 'timeout'})`,
        `let it run longer with ${limits.timeoutName ?? 'timeout'} SECONDS, or 0 for no limit`,
        { cause: err },
      );
    }
    if (/^Out of Memory Error/.test(message)) {
      // DuckDB's first line; the rest suggests settings the sealed database cannot change.
      throw new QueryError(
        `${source}: ${message.split('\n')[0]}`,
        `the query needs more than ${limits.memoryName ?? 'memory_limit'} allows: raise it, or ask for less (a LIMIT, fewer columns)`,
        { cause: err },
      );
    }
    throw new QueryError(`${source}: ${message}`, undefined, { cause: err });
  };
  // An interrupt between statements, or while rows print, reaches none: the flag is checked too.
  const check = () => {
    if (interrupted) fail(new Error('Interrupted'));
  };
  try {
    // Every DuckDB call is raced with the deadline: one that does not heed the interrupt is given up at it.
    const extracted = await limit.race(extract(con, sql, source));
    check();
    const n = extracted.count;
    if (sink.tables) {
      const read = (await limit.race(tablesReadBy(con, sql, n))) ?? [];
      check();
      await limit.race(sink.tables(read));
    }
    // Each statement's plan is checked for a refused function only when the SQL names one.
    const texts = mayCallRefused(sql) ? (n === 1 ? [sql] : await limit.race(splitToCheck(con, sql, n, source, check))) : undefined;
    for (let i = 0; i < n; i++) {
      check();
      const prepared = await limit.race(extracted.prepare(i)).catch(fail);
      check();
      if (prepared.statementType === StatementType.PRAGMA) throw pragmaError(source, i);
      if (texts) {
        await limit.race(refuseCalls(con, texts[i]!, source, i)).catch((err) => {
          check();
          throw err;
        });
        check();
      }
      // node-api would bind an absent value and say "Unexpected type id: 0".
      if (prepared.parameterCount > 0) {
        throw new QueryError(
          `${source}: statement ${i + 1} has a parameter ($${prepared.parameterName(1)}), which nothing binds here`,
          'write the value into the query',
        );
      }
      if (prepared.statementType === StatementType.TRANSACTION) throw transactionError(source, i);
      if (i < n - 1) {
        // DuckDB says what a statement returns once it has run (RETURNING may name a column "Count"):
        // one refused then has run in the sandbox only.
        const rows = () =>
          new QueryError(
            `${source}: statement ${i + 1} of ${n} returns rows, which would not be printed: only the last statement's are`,
            'run it on its own, or make it the last',
          );
        if (prepared.statementType === StatementType.SELECT || prepared.statementType === StatementType.EXPLAIN) throw rows();
        const ran = await limit.race(prepared.run()).catch(fail);
        if (ran.returnType === ResultReturnType.QUERY_RESULT) throw rows();
        continue;
      }
      const columns = deduplicated(Array.from({ length: prepared.columnCount }, (_, c) => prepared.columnName(c)));
      const types = Array.from({ length: prepared.columnCount }, (_, c) => prepared.columnType(c));
      const proto = protoName(types, sink.mode === 'plain' ? columns : undefined);
      if (proto) throw new QueryError(`${source}: ${proto} is named "__proto__", which its rows cannot hold`, 'rename it (AS)');
      // DuckDB's own text form (CAST(x AS VARCHAR)): a SELECT is run wrapped in that cast.
      const asText =
        sink.mode === 'text' && prepared.statementType === StatementType.SELECT
          ? await limit.race(textPrepared(con, sql, n, check))
          : undefined;
      const result = await limit.race((asText ?? prepared).stream()).catch(fail);
      // The columns go once the first chunk is made: a query failing before its first row prints nothing.
      let made = 0;
      for (let first = true; ; first = false) {
        check();
        const chunk = await limit.race(result.fetchChunk()).catch(fail);
        if (first) await limit.race(sink.columns(columns.map((name, c) => ({ name, type: types[c]!.toString() })))).catch(fail);
        // An interrupted stream may end as if it were complete: the flag tells.
        if (chunk === null || chunk.rowCount === 0) {
          check();
          await limit.race(streamEnded(con, source, made));
          break;
        }
        made += chunk.rowCount;
        // A few rows at a time: a chunk of long values is hundreds of MB once made text.
        for (let at = 0; at < chunk.rowCount; at += BATCH_ROWS) {
          check();
          // A reader of stdout that does not read holds the hand-over: the deadline stops that too.
          await limit.race(sink.rows(chunkRows(chunk, types, sink.mode, at, BATCH_ROWS))).catch(fail);
        }
      }
    }
  } catch (err) {
    fail(err);
  } finally {
    limit.clear();
  }
}

/** DuckDB's statements of `sql`; SQL that does not parse is an error in the parser's words. */
async function extract(con: DuckDBConnection, sql: string, source: string): Promise<DuckDBExtractedStatements> {
  try {
    return await con.extractStatements(sql);
  } catch (err) {
    // DuckDB's statement extraction says only that it failed; preparing the text gives the parser's words.
    await con.prepare(sql).catch((e: Error) => {
      throw new QueryError(`${source}: ${e.message}`, undefined, { cause: e });
    });
    throw new QueryError(`${source}: holds no SQL statement`, undefined, { cause: err });
  }
}

/** The texts of the `n` statements of `sql`, which names a refused function, for refuseCalls; refused when too long to split. */
async function splitToCheck(con: DuckDBConnection, sql: string, n: number, source: string, check: () => void): Promise<string[]> {
  const texts = sql.length <= PARSED_AT_MOST ? await statementTexts(con, sql, n, check) : undefined;
  if (texts) return texts;
  throw new QueryError(
    `${source}: names a function SQL here may not call (or query()), in ${n} statements that cannot be split to check each one's plan (SQL of several statements is split up to ${PARSED_AT_MOST / 1024} KiB)`,
    'run the statement that names it on its own',
  );
}

/**
 * A stream that fails ends as if it were complete, and node-api does not say why (it has no
 * duckdb_result_error); the failure aborts the sandbox's transaction, which the next statement shows.
 */
async function streamEnded(con: DuckDBConnection, source: string, made: number): Promise<void> {
  await con.run('select 1').catch((err: Error) => {
    throw new QueryError(
      `${source}: the query failed after ${made} row(s), and DuckDB did not say why: what was printed is incomplete`,
      'an aggregate over it names the error: select count(hash(q)) from (QUERY) as q',
      { cause: err },
    );
  });
}

/** The type of each statement of `sql` (SELECT, CREATE, …), as DuckDB parses it; UNKNOWN for one that does not prepare alone. */
export async function statementTypes(con: DuckDBConnection, sql: string): Promise<string[]> {
  let extracted: DuckDBExtractedStatements;
  try {
    extracted = await con.extractStatements(sql);
  } catch {
    return [];
  }
  const types: string[] = [];
  for (let i = 0; i < extracted.count; i++) {
    types.push(
      await extracted.prepare(i).then(
        (p) => StatementType[p.statementType] ?? 'UNKNOWN',
        () => 'UNKNOWN',
      ),
    );
  }
  return types;
}

/**
 * Interrupt what runs on `con` once `signal` aborts, and again until the returned function is
 * called: DuckDB forgets an interrupt that comes between two statements.
 */
export function interruptOnAbort(con: DuckDBConnection, signal: AbortSignal | undefined): () => void {
  let again: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    con.interrupt();
    again ??= setInterval(() => con.interrupt(), 20);
  };
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  return () => {
    signal?.removeEventListener('abort', stop);
    clearInterval(again);
  };
}

/**
 * End a sandbox: roll its transaction back, and turn DuckDB's logger off and empty its log when SQL
 * there turned it on (CALL enable_logging() reaches every connection, past the rollback and the
 * locked configuration).
 */
export async function rollBack(con: DuckDBConnection): Promise<void> {
  await con.run('ROLLBACK').catch(() => undefined);
  const on = await con.runAndReadAll(`select current_setting('enable_logging')::BOOLEAN as on`).then(
    (r) => r.getRows()[0]?.[0] === true,
    () => false,
  );
  if (on) await con.run('CALL disable_logging(); CALL truncate_duckdb_logs()').catch(() => undefined);
}
