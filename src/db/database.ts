/**
 * The module that talks to DuckDB (engine.ts only starts it): an in-memory database with no temp
 * directory, or a database file; SQL run with bound parameters, its rows returned as plain values
 * (values.ts). It computes nothing itself: numbers come from the SQL it is given. SQL omg-evidence
 * did not write runs in a sandbox, a transaction that is rolled back (statements.ts).
 */
// node-api's JavaScript is bundled into dist/ with the CLI (vite.config.ts), so its some 180
// files are not loaded one by one.
import { DuckDBInstance, StatementType } from '@duckdb/node-api';
import type { DuckDBConnection, DuckDBInstance as Instance } from '@duckdb/node-api';
import { QueryError } from '../base/errors.js';
import { defaultMemoryLimit, fileOptions, INSTANCE_OPTIONS, takeEarly } from './engine.js';
import { type Params, sqlIdentifier, sqlString } from './sql-text.js';
import {
  type Limits,
  type RowSink,
  gatherStatements,
  interruptOnAbort,
  rollBack,
  statementTypes,
  streamStatements,
  transactionError,
} from './statements.js';
import { selectViaJson } from './select-json.js';
import { type ParsedSql, parseSql, tablesReadBy } from './table-refs.js';
import { type Result, resultOf } from './values.js';

// The wrapper's vocabulary, from one module.
export type { Row, Result } from './values.js';
export type { Limits, RowSink } from './statements.js';
export { sqlString, sqlIdentifier, textList, pathList, type Params } from './sql-text.js';

/**
 * What every connection is set to. GLOBAL, so that a connection opened later (inParallel, sandbox)
 * has it too once the configuration is locked.
 */
const SESSION_SETTINGS = `SET GLOBAL TimeZone = 'UTC'`;

/** Set by Database.leaveToExit. */
let leavingToExit = false;

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
   * teardown, which a large load makes slow. Database files are still closed, so that DuckDB
   * checkpoints them.
   */
  static leaveToExit(): void {
    leavingToExit = true;
  }

  /**
   * An in-memory database, or a database file. `temp_directory: ''` keeps DuckDB from allow-listing
   * (or creating) `./.tmp`. A read-only file is sealed from the start: no file access, no
   * extension loading, configuration locked once its time zone is set (DuckDB's
   * enable_external_access and lock_configuration).
   */
  static async open(options: { file?: string; readOnly?: boolean; progress?: boolean; memoryLimit?: string } = {}): Promise<Database> {
    // The configuration is locked once the time zone is set (below).
    const sealed: Record<string, string> = options.readOnly ? { access_mode: 'READ_ONLY', enable_external_access: 'false' } : {};
    let instance: Instance;
    try {
      const early = options.file === undefined && !options.readOnly ? takeEarly() : undefined;
      if (early) {
        instance = new DuckDBInstance(await early);
      } else {
        const given = options.file === undefined ? INSTANCE_OPTIONS : fileOptions(options.file);
        instance = await DuckDBInstance.create(options.file ?? ':memory:', { ...given, ...sealed });
      }
    } catch (err) {
      throw new QueryError(
        `${options.file ?? ':memory:'}: ${(err as Error).message}`,
        'is it a DuckDB database that no other process holds open?',
        { cause: err },
      );
    }
    const con = await instance.connect();
    await con.run(SESSION_SETTINGS);
    if (options.readOnly) {
      const db = new Database(instance, con, options.file);
      await db.seal(options.memoryLimit);
      return db;
    }
    // With `progress`, DuckDB tracks how far a statement has got (for exec's onProgress), at some
    // cost to every statement, but never prints it itself.
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

  /**
   * Run `work` on `n` connections to this database at once (this one and n - 1 more, closed when
   * all have ended): a statement that runs on one thread, such as a scan WITH ORDINALITY, then
   * uses n. The others see tables and views, not temporary ones. The first failure is thrown.
   */
  async onConnections<T>(n: number, work: (db: Database, i: number) => Promise<T>): Promise<T[]> {
    const others = await Promise.all(
      Array.from({ length: Math.max(0, n - 1) }, async () => new Database(this.instance, await this.instance.connect(), this.file, true)),
    );
    try {
      const settled = await Promise.allSettled([this, ...others].map((db, i) => work(db, i)));
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
    } finally {
      for (const o of others) o.close();
    }
  }

  /**
   * DuckDB's threads from here on: `n`, or every core as DuckDB counts them (its default heeds a
   * container's CPU quota; Node 20's count does not). Returns how many. Before seal().
   */
  async useThreads(n?: number): Promise<number> {
    await this.con.run(n === undefined ? 'RESET GLOBAL threads' : `SET GLOBAL threads = ${n}`);
    return n ?? Number((await this.query(`select current_setting('threads') as n`)).rows[0]!.n);
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
   * Run `use` on a connection of its own to this database, in a transaction always rolled back
   * (rollBack): whatever it creates or changes, temporary tables and macros included, is gone when
   * it returns, and no other connection sees it. Where the user's SQL and a probe's checks run.
   */
  async sandbox<T>(use: (box: Database) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const con = await this.instance.connect();
    const box = new Database(this.instance, con, this.file, true, true);
    const release = interruptOnAbort(con, signal);
    try {
      await con.run('BEGIN TRANSACTION');
      return await use(box);
    } finally {
      release();
      await rollBack(con);
      box.close();
    }
  }

  /**
   * Run the statements of `sql` one after the other, and read the last one's rows (the user's SQL,
   * in a sandbox), gathered whole: the library's sql(). `maxRows` bounds what is gathered.
   */
  statements(sql: string, source = 'query', limits: Limits & { maxRows?: number } = {}): Promise<Result> {
    return gatherStatements(this.con, sql, source, limits);
  }

  /**
   * Run the statements of `sql` one after the other and hand the last one's rows to `sink`, a few
   * rows at a time, as DuckDB makes them (statements.ts): the user's SQL, in a sandbox.
   */
  streamStatements(sql: string, source: string, sink: RowSink, limits: Limits = {}): Promise<void> {
    return streamStatements(this.con, sql, source, sink, limits);
  }

  /**
   * In a sandbox, refuse SQL that holds a statement beginning, committing or rolling back a
   * transaction, before any of it runs: it would end the sandbox's transaction, and what followed
   * would last. Such a statement binds nothing, so it prepares before those ahead of it have run;
   * text that does not parse is left for DuckDB to report.
   */
  private async refuseTransactions(sql: string, source: string): Promise<void> {
    if (!this.guarded) return;
    const i = (await this.statementTypes(sql)).indexOf(StatementType[StatementType.TRANSACTION]);
    if (i >= 0) throw transactionError(source, i);
  }

  /** DuckDB's own parse of `sql` (parseSql): each statement's syntax tree when all are SELECTs, else DuckDB's error. */
  parse(sql: string): Promise<ParsedSql> {
    return parseSql(this.con, sql);
  }

  /** The tables `sql` reads when it is one SELECT of modest size (tablesReadBy); null otherwise. */
  tablesRead(sql: string): Promise<string[] | null> {
    return tablesReadBy(this.con, sql);
  }

  /** The type of each statement of `sql` (SELECT, CREATE, …), as DuckDB parses it; UNKNOWN for one that does not prepare alone. */
  statementTypes(sql: string): Promise<string[]> {
    return statementTypes(this.con, sql);
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
   * (DuckDB's to_json of each row, joined) and parsed by JSON.parse, much faster than converting
   * nested values one by one in JavaScript. Anything else, and a result whose text holds an
   * integer JSON.parse might round, goes through query(). Preparing the statement first has a cost
   * of its own, so the loader's own checks use query().
   */
  async select(sql: string, params?: Params, source = 'query'): Promise<Result> {
    await this.refuseTransactions(sql, source);
    // selectViaJson reports no error: anything DuckDB refuses, query() runs again and reports.
    return (await selectViaJson(this.con, sql, params)) ?? this.query(sql, params, source);
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
   * Forbid file access from here on (DuckDB's enable_external_access and lock_configuration):
   * tables must be loaded first. With no temp directory nothing stays allow-listed, and the
   * configuration cannot be changed back.
   */
  async seal(memoryLimit?: string): Promise<void> {
    await this.limitMemory(memoryLimit);
    await this.exec(`SET enable_external_access = false; SET lock_configuration = true`);
  }

  /**
   * Set DuckDB's memory_limit (default: defaultMemoryLimit()), before the configuration is locked:
   * once it is, memory_limit cannot be set. With no temp directory, a query that needs more fails
   * with DuckDB's "Out of Memory Error" instead of taking the machine's memory.
   */
  private async limitMemory(limit = defaultMemoryLimit()): Promise<void> {
    try {
      await this.con.run(`SET GLOBAL memory_limit = ${sqlString(limit)}`);
    } catch (err) {
      // DuckDB's first line; the rest suggests settings that do not apply here.
      throw new QueryError(
        `memory limit ${limit}: ${(err as Error).message.split('\n')[0]}`,
        'give a size such as 2GB or 512MiB, larger than the loaded evidence',
        { cause: err },
      );
    }
  }

  /**
   * Write this database's tables and views to a new database file `file`, compactly: DuckDB copies
   * them into a database of their own (ATTACH, COPY FROM DATABASE), so the file holds no block
   * that building in place leaves free (helper tables dropped, columns dropped, rows updated).
   * Temporary tables stay behind. A copy that failed half-way left `file` attached: the next one detaches it.
   */
  async copyTo(file: string): Promise<void> {
    const from = (await this.query(`select current_database() as name`)).rows[0]!.name as string;
    await this.exec(
      `DETACH DATABASE IF EXISTS omg_copy; ATTACH ${sqlString(file)} AS omg_copy; COPY FROM DATABASE ${sqlIdentifier(from)} TO omg_copy; DETACH omg_copy`,
      undefined,
      `writing ${file}`,
    );
  }

  close(): void {
    if (this.borrowed) {
      this.con.closeSync();
      return;
    }
    if (leavingToExit && this.file === undefined) return;
    this.con.closeSync();
    this.instance.closeSync();
  }
}
