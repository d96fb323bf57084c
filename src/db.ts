/**
 * The module that talks to DuckDB (engine.ts only starts it). It opens an in-memory database with
 * no temp directory (the CLI has one started ahead of need: engine.ts), runs SQL with bound
 * parameters, and returns plain JSON-safe rows (BIGINT becomes a number when it is a safe integer,
 * DECIMAL a number, nested lists and structs plain arrays and objects), value by value (query) or,
 * when that is exact, through DuckDB's to_json (select). It computes nothing itself: numbers come
 * from the SQL it is given. SQL that omg-evidence did not write runs in a sandbox: a connection of
 * its own, in a transaction that is rolled back.
 */
// node-api's JavaScript is bundled into dist/ with the CLI (vite.config.ts), so its some 180
// files are not loaded one by one.
import { DuckDBInstance, DuckDBTypeId, JSDuckDBValueConverter, StatementType, listValue } from '@duckdb/node-api';
import type {
  DuckDBConnection, DuckDBExtractedStatements, DuckDBInstance as Instance, DuckDBPreparedStatement, DuckDBResultReader, DuckDBType, DuckDBValue, DuckDBValueConverter, JS,
} from '@duckdb/node-api';
import { INSTANCE_OPTIONS, takeEarly } from './engine.js';
import { QueryError } from './errors.js';

export type Row = Record<string, unknown>;
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

/** BIGINT/HUGEINT → number when safe (else a decimal string); everything else as node-api's JS form. */
const toPlain: DuckDBValueConverter<JS> = (value, type, converter) => {
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  return JSDuckDBValueConverter(value, type, converter);
};

/** Scalar types whose values to_json writes as the very JSON value that toPlain gives. */
const JSON_EXACT = new Set<number>([
  DuckDBTypeId.VARCHAR, DuckDBTypeId.BOOLEAN, DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT, DuckDBTypeId.UHUGEINT,
]);

/**
 * Whether every value of `type` reads back from DuckDB's to_json text as what toPlain would give:
 * strings, booleans and integers, and lists and structs of them. Not JSON (to_json would embed it
 * rather than quote it), nor floats (NaN), decimals, dates or anything else.
 */
function jsonExact(type: DuckDBType): boolean {
  if (type.alias !== undefined) return false;
  if (type.typeId === DuckDBTypeId.LIST) return jsonExact(type.valueType);
  if (type.typeId === DuckDBTypeId.STRUCT) return type.entryTypes.every(jsonExact);
  return JSON_EXACT.has(type.typeId);
}

/** An integer that JSON.parse might round (2^53 has 16 digits): its result is read value by value instead. */
const UNSAFE_INTEGER = /\d{16}/;

export interface Result {
  /** The rows' keys, in order: the column names, a repeated one suffixed `:1`, `:2`, …. */
  columns: string[];
  /** DuckDB's own type names, e.g. `BIGINT`, `VARCHAR[]`. */
  types: string[];
  rows: Row[];
}

/**
 * What every connection is set to. GLOBAL, so that a connection opened later (inParallel, sandbox)
 * has it too once the configuration is locked.
 */
const SESSION_SETTINGS = `SET GLOBAL TimeZone = 'UTC'`;

/** Set by Database.leaveToExit. */
let leavingToExit = false;

/** What json_serialize_sql returns: each statement's syntax tree, or DuckDB's error. */
export type ParsedSql =
  | { error: false; statements: { node: unknown }[] }
  | { error: true; error_type: string; error_message: string };

/** The error for SQL, run in a sandbox, whose statement `i` would end the sandbox's transaction. */
function transactionError(source: string, i: number): QueryError {
  return new QueryError(
    `${source}: statement ${i + 1} begins, commits or rolls back a transaction`,
    'leave it out: your SQL runs in a transaction of its own, which omg-evidence rolls back',
  );
}

/** A result's rows, as plain values. */
function resultOf(reader: DuckDBResultReader): Result {
  return {
    // Row objects key a second column of one name `a:1` (the node API's deduplicated names).
    columns: reader.deduplicatedColumnNames(),
    types: reader.columnTypes().map((t) => t.toString()),
    rows: reader.convertRowObjects(toPlain) as Row[],
  };
}

export class Database {
  private constructor(
    private readonly instance: Instance,
    private readonly con: DuckDBConnection,
    /** The database file, or undefined in memory. */
    private readonly file: string | undefined,
    /** A second connection to another Database's instance (inParallel): close() closes only it. */
    private readonly borrowed = false,
    /** A sandbox's connection: SQL that would end its transaction is refused (refuseTransactions). */
    private readonly guarded = false,
  ) {}

  /**
   * For a process that exits with process.exit() once its one command is done (the CLI): close()
   * then leaves in-memory databases to that exit, which frees their memory without DuckDB's
   * teardown (~20 ms after a large load). Database files are still closed, so that DuckDB
   * checkpoints them.
   */
  static leaveToExit(): void {
    leavingToExit = true;
  }

  /**
   * An in-memory database, or a database file. `temp_directory: ''` keeps DuckDB from allow-listing
   * (or creating) `./.tmp`. A read-only file is sealed from the start: no file access, no
   * extension loading, configuration locked once its time zone is set (stack-notes §4).
   */
  static async open(options: { file?: string; readOnly?: boolean; progress?: boolean } = {}): Promise<Database> {
    // The configuration is locked once the time zone is set (below).
    const sealed: Record<string, string> = options.readOnly ? { access_mode: 'READ_ONLY', enable_external_access: 'false' } : {};
    let instance: Instance;
    try {
      const early = options.file === undefined && !options.readOnly ? takeEarly() : undefined;
      if (early) {
        instance = new DuckDBInstance(await early);
      } else {
        instance = await DuckDBInstance.create(options.file ?? ':memory:', { ...INSTANCE_OPTIONS, ...sealed });
      }
    } catch (err) {
      throw new QueryError(`${options.file ?? ':memory:'}: ${(err as Error).message}`, 'is it a DuckDB database that no other process holds open?', { cause: err });
    }
    const con = await instance.connect();
    if (options.readOnly) {
      await con.run(`${SESSION_SETTINGS}; SET lock_configuration = true`);
      return new Database(instance, con, options.file);
    }
    // With `progress`, DuckDB tracks how far a statement has got (for exec's onProgress), at some
    // cost to every statement, but never prints it itself.
    await con.run(SESSION_SETTINGS);
    if (options.progress) await con.run(`SET enable_progress_bar = true; SET enable_progress_bar_print = false; SET progress_bar_time = 0`);
    return new Database(instance, con, options.file);
  }

  /**
   * Run `here` on this connection and `there` on a second connection to the same database, at the
   * same time (a statement over a small table runs on one thread). The second connection sees
   * tables and views, not temporary ones, and is closed once both have ended. When both fail,
   * `there`'s error is the one thrown.
   */
  async inParallel<A, B>(here: (db: Database) => Promise<A>, there: (db: Database) => Promise<B>): Promise<[A, B]> {
    const con = await this.instance.connect();
    const second = new Database(this.instance, con, this.file, true);
    try {
      const [a, b] = await Promise.allSettled([here(this), there(second)]);
      if (b.status === 'rejected') throw b.reason;
      if (a.status === 'rejected') throw a.reason;
      return [a.value, b.value];
    } finally {
      second.close();
    }
  }

  /** Run SQL and read every row, value by value. `source` names where the SQL came from, for error messages. */
  async query(sql: string, params?: Params, source = 'query'): Promise<Result> {
    await this.refuseTransactions(sql, source);
    try {
      return resultOf(await this.con.runAndReadAll(sql, params as never));
    } catch (err) {
      throw new QueryError(`${source}: ${(err as Error).message}`, undefined, { cause: err });
    }
  }

  /**
   * Run `use` on a connection of its own to this database, inside a transaction that is always
   * rolled back: whatever it creates, replaces or changes, temporary tables and macros included,
   * is gone when it returns, and no other connection ever sees it. Where SQL that omg-evidence did
   * not write runs (the user's, a probe's registered checks).
   */
  async sandbox<T>(use: (box: Database) => Promise<T>): Promise<T> {
    const con = await this.instance.connect();
    const box = new Database(this.instance, con, this.file, true, true);
    try {
      await con.run('BEGIN TRANSACTION');
      return await use(box);
    } finally {
      await con.run('ROLLBACK').catch(() => undefined);
      box.close();
    }
  }

  /**
   * Run the statements of `sql` one after the other, and read the last one's rows (the user's SQL,
   * in a sandbox). A statement that begins, commits or rolls back a transaction is refused before
   * it runs: it would end the sandbox's own, and what follows would last.
   */
  async statements(sql: string, source = 'query'): Promise<Result> {
    let extracted: DuckDBExtractedStatements;
    try {
      extracted = await this.con.extractStatements(sql);
    } catch (err) {
      // DuckDB's statement extraction says only that it failed; preparing the text gives the parser's words.
      await this.con.prepare(sql).catch((e: Error) => {
        throw new QueryError(`${source}: ${e.message}`, undefined, { cause: e });
      });
      throw new QueryError(`${source}: holds no SQL statement`, undefined, { cause: err });
    }
    const n = extracted.count;
    for (let i = 0; ; i++) {
      let prepared: DuckDBPreparedStatement;
      try {
        prepared = await extracted.prepare(i);
      } catch (err) {
        throw new QueryError(`${source}: ${(err as Error).message}`, undefined, { cause: err });
      }
      if (prepared.statementType === StatementType.TRANSACTION) throw transactionError(source, i);
      // A lone SELECT is read the fast way (select).
      if (n === 1 && prepared.statementType === StatementType.SELECT) return this.select(sql, undefined, source);
      try {
        if (i < n - 1) await prepared.run();
        else return resultOf(await prepared.runAndReadAll());
      } catch (err) {
        throw new QueryError(`${source}: ${(err as Error).message}`, undefined, { cause: err });
      }
    }
  }

  /**
   * In a sandbox, refuse SQL that holds a statement beginning, committing or rolling back a
   * transaction, before any of it runs: it would end the sandbox's transaction, and what followed
   * would last. Such a statement binds nothing, so it prepares before those ahead of it have run;
   * text that does not parse is left for DuckDB to report.
   */
  private async refuseTransactions(sql: string, source: string): Promise<void> {
    if (!this.guarded) return;
    let extracted: DuckDBExtractedStatements;
    try {
      extracted = await this.con.extractStatements(sql);
    } catch {
      return;
    }
    for (let i = 0; i < extracted.count; i++) {
      const type = await extracted.prepare(i).then((p) => p.statementType, () => undefined);
      if (type === StatementType.TRANSACTION) throw transactionError(source, i);
    }
  }

  /**
   * DuckDB's own parse of `sql` (json_serialize_sql): the syntax tree of each statement when all are
   * SELECTs, else DuckDB's error. It parses only: nothing is bound or run.
   */
  async parse(sql: string): Promise<ParsedSql> {
    const res = await this.query(`select json_serialize_sql($sql::VARCHAR)::VARCHAR as tree`, { sql });
    return JSON.parse(String(res.rows[0]!.tree)) as ParsedSql;
  }

  /** The type of each statement of `sql` (SELECT, CREATE, …), as DuckDB parses it; UNKNOWN for one that does not prepare alone. */
  async statementTypes(sql: string): Promise<string[]> {
    let extracted: DuckDBExtractedStatements;
    try {
      extracted = await this.con.extractStatements(sql);
    } catch {
      return [];
    }
    const types: string[] = [];
    for (let i = 0; i < extracted.count; i++) {
      types.push(await extracted.prepare(i).then((p) => StatementType[p.statementType] ?? 'UNKNOWN', () => 'UNKNOWN'));
    }
    return types;
  }

  /** The named parameters (`$name`) of a query, in order; preparing it binds it, so an unknown table or column is an error here. */
  async parameters(sql: string, source = 'query'): Promise<string[]> {
    try {
      const prepared = await this.con.prepare(sql);
      return Array.from({ length: prepared.parameterCount }, (_, i) => prepared.parameterName(i + 1));
    } catch (err) {
      throw new QueryError(`${source}: ${(err as Error).message}`, undefined, { cause: err });
    }
  }

  /**
   * Run a query whose result is worth reading fast (a public query, the user's SQL): the same rows
   * as query(), in the same order. A SELECT whose columns are all jsonExact is read as one JSON text
   * (DuckDB's to_json of each row, joined) and parsed by JSON.parse, several times faster than
   * converting nested values one by one (the census of 1,000 sessions' tool lists: ~10 ms instead
   * of ~60). Anything else, and a result whose text holds an integer JSON.parse might round, goes
   * through query(). Preparing the statement first costs a few ms, so the loader's own checks use
   * query().
   */
  async select(sql: string, params?: Params, source = 'query'): Promise<Result> {
    await this.refuseTransactions(sql, source);
    // selectViaJson reports no error: anything DuckDB refuses, query() runs again and reports.
    return (await this.selectViaJson(sql, params)) ?? this.query(sql, params, source);
  }

  private async selectViaJson(sql: string, params?: Params): Promise<Result | null> {
    let columns: string[];
    let types: DuckDBType[];
    try {
      const prepared = await this.con.prepare(sql);
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
      const reader = await this.con.runAndReadAll(
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

  /**
   * Run SQL for its effect. With `onProgress`, DuckDB's estimate of how far the statement has got
   * (0 to 1) is reported every `every` ms while it runs (in a database opened with `progress`), and
   * 1 when it ends.
   */
  async exec(sql: string, params?: Params, source = 'query', onProgress?: (fraction: number) => void, every = 200): Promise<void> {
    await this.refuseTransactions(sql, source);
    const timer = onProgress
      ? setInterval(() => {
          const p = this.con.progress.percentage;
          if (p >= 0) onProgress(Math.min(p, 100) / 100);
        }, every)
      : undefined;
    try {
      await this.con.run(sql, params as never);
      onProgress?.(1);
    } catch (err) {
      throw new QueryError(`${source}: ${(err as Error).message}`, undefined, { cause: err });
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * Forbid file access from here on (stack-notes §4): tables must be loaded first. With no temp
   * directory nothing stays allow-listed, and the configuration cannot be changed back.
   */
  async seal(): Promise<void> {
    await this.exec(`SET enable_external_access = false; SET lock_configuration = true`);
  }

  /**
   * Write this database's tables and views to a new database file `file`, compactly: DuckDB copies
   * them into a database of their own (ATTACH, COPY FROM DATABASE), so the file holds no block
   * that building in place leaves free (helper tables dropped, columns dropped, rows updated).
   * Temporary tables stay behind.
   */
  async copyTo(file: string): Promise<void> {
    const from = (await this.query(`select current_database() as name`)).rows[0]!.name as string;
    await this.exec(
      `ATTACH ${sqlString(file)} AS omg_copy; COPY FROM DATABASE ${sqlIdentifier(from)} TO omg_copy; DETACH omg_copy`,
      undefined,
      `writing ${file}`,
    );
  }

  close(): void {
    if (this.borrowed) return this.con.closeSync();
    if (leavingToExit && this.file === undefined) return;
    this.con.closeSync();
    this.instance.closeSync();
  }
}

/** A SQL string literal, for what DuckDB cannot take as a bound parameter (schemas, column maps). */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A SQL identifier, quoted. */
export function sqlIdentifier(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/**
 * Files as a bound parameter for DuckDB's file readers (`read_json($files, …)`): DuckDB binds a
 * list of a thousand paths in about half the time it takes to parse them as a SQL literal. The
 * readers take `*`, `?` and `[` in a path as glob characters: `a[1].jsonl` would read `a1.jsonl`.
 * Each one is written as a one-character class, which matches only itself.
 */
export function pathList(paths: string[]): DuckDBValue {
  return listValue(paths.map((p) => p.replace(/[*?[]/g, (c) => `[${c}]`)));
}
