/**
 * The module that talks to DuckDB (engine.ts only starts it). It opens an in-memory database with
 * no temp directory (the CLI has one started ahead of need: engine.ts), runs SQL with bound
 * parameters, and returns plain JSON-safe rows (BIGINT becomes a number when it is a safe integer,
 * DECIMAL a number, nested lists and structs plain arrays and objects), value by value (query) or,
 * when that is exact, through DuckDB's to_json (select). It computes nothing itself: numbers come
 * from the SQL it is given. SQL that omg-evidence did not write runs in a sandbox: a connection of
 * its own, in a transaction that is rolled back; the user's is streamed a chunk at a time
 * (streamStatements), within DuckDB's memory_limit (set before sealing) and a timeout.
 */
// node-api's JavaScript is bundled into dist/ with the CLI (vite.config.ts), so its some 180
// files are not loaded one by one.
import { totalmem } from 'node:os';
import { DuckDBDateValue, DuckDBInstance, DuckDBTypeId, JSDuckDBValueConverter, StatementType, listValue } from '@duckdb/node-api';
import type {
  DuckDBBlobValue,
  DuckDBConnection,
  DuckDBExtractedStatements,
  DuckDBIntervalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBUnionValue,
  DuckDBInstance as Instance,
  DuckDBPreparedStatement,
  DuckDBResultReader,
  DuckDBType,
  DuckDBValue,
  DuckDBValueConverter,
  JS,
} from '@duckdb/node-api';
import { INSTANCE_OPTIONS, takeEarly } from './engine.js';
import { QueryError } from '../base/errors.js';

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
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
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
 * Where streamStatements hands a result: its columns, then its rows a chunk at a time, each value
 * as `mode` asks: `text`, DuckDB's text form (null for NULL); `json`, the value's JSON text
 * (jsonText); `plain`, what query() gives.
 */
export interface RowSink {
  mode: 'text' | 'json' | 'plain';
  columns(columns: { name: string; type: string }[]): void | Promise<void>;
  rows(rows: unknown[][]): void | Promise<void>;
}

/** DuckDB's memory_limit when none is given: a quarter of the machine's memory. */
function defaultMemoryLimit(): string {
  return `${Math.floor(totalmem() / 4 / 2 ** 20)}MiB`;
}

/** Column names as node-api's row objects key them: a repeated one suffixed `:1`, `:2`, …. */
function deduplicated(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    return k === 0 ? name : `${name}:${k}`;
  });
}

/** Whether a prepared statement returns rows rather than DuckDB's one status column (`Count`, `Success`). */
function returnsRows(prepared: DuckDBPreparedStatement): boolean {
  if (prepared.statementType === StatementType.SELECT || prepared.statementType === StatementType.EXPLAIN) return true;
  return !(prepared.columnCount === 1 && ['Count', 'Success'].includes(prepared.columnName(0)));
}

/** An ISO 8601 UTC offset: DuckDB writes `+02` or `+05:30`. */
const isoOffset = (text: string) => text.replace(/([+-]\d\d)$/, '$1:00');

/**
 * An INTERVAL as an ISO 8601 duration (P1Y2M3DT4H5M6.5S). DuckDB keeps months, days and
 * microseconds apart, each with its own sign; so does this, one sign per part (as PostgreSQL's
 * iso_8601 style does): -1 day +2 hours is P-1DT2H.
 */
function isoDuration(months: number, days: number, micros: bigint): string {
  const part = (n: number | bigint, unit: string) => (n === 0 || n === 0n ? '' : `${n}${unit}`);
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const h = abs / 3_600_000_000n;
  const m = (abs / 60_000_000n) % 60n;
  const us = abs % 60_000_000n;
  const s =
    us === 0n
      ? ''
      : `${sign}${us / 1_000_000n}${
          us % 1_000_000n
            ? `.${String(us % 1_000_000n)
                .padStart(6, '0')
                .replace(/0+$/, '')}`
            : ''
        }S`;
  const date = part(Math.trunc(months / 12), 'Y') + part(months % 12, 'M') + part(days, 'D');
  const time = (h ? `${sign}${h}H` : '') + (m ? `${sign}${m}M` : '') + s;
  return date === '' && time === '' ? 'PT0S' : `P${date}${time ? `T${time}` : ''}`;
}

/**
 * A value's JSON text: numbers (integers of any size, DECIMAL) as JSON numbers in DuckDB's exact
 * digits; non-finite floats as the strings "NaN", "Infinity", "-Infinity"; dates, times and
 * timestamps as ISO 8601 strings, INTERVAL as an ISO 8601 duration; BLOB as base64; lists and
 * arrays as arrays, structs as objects, a MAP as an object keyed by its keys' text, a UNION as its
 * value; anything else (UUID, ENUM, BIT, JSON, …) as the string of its text.
 */
function jsonText(v: DuckDBValue, type: DuckDBType): string {
  if (v === null) return 'null';
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return v ? 'true' : 'false';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.DECIMAL:
      return String(v);
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return Number.isFinite(v) ? JSON.stringify(v) : `"${String(v)}"`;
    case DuckDBTypeId.DATE: {
      const d = v as DuckDBDateValue;
      return JSON.stringify(
        d.days === DuckDBDateValue.PosInf.days ? 'infinity' : d.days === DuckDBDateValue.NegInf.days ? '-infinity' : d.toString(),
      );
    }
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return JSON.stringify(isoOffset(String(v).replace(' ', 'T')));
    case DuckDBTypeId.TIME_TZ:
      return JSON.stringify(isoOffset(String(v)));
    case DuckDBTypeId.INTERVAL: {
      const i = v as DuckDBIntervalValue;
      return JSON.stringify(isoDuration(i.months, i.days, i.micros));
    }
    case DuckDBTypeId.BLOB:
      return JSON.stringify(Buffer.from((v as DuckDBBlobValue).bytes).toString('base64'));
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return `[${(v as DuckDBListValue).items.map((x) => jsonText(x, type.valueType)).join(',')}]`;
    case DuckDBTypeId.STRUCT: {
      const t = type;
      return `{${t.entryNames.map((name, k) => `${JSON.stringify(name)}:${jsonText((v as DuckDBStructValue).entries[name] ?? null, t.entryTypes[k]!)}`).join(',')}}`;
    }
    case DuckDBTypeId.MAP:
      return `{${(v as DuckDBMapValue).entries.map((e) => `${JSON.stringify(String(e.key))}:${jsonText(e.value, type.valueType)}`).join(',')}}`;
    case DuckDBTypeId.UNION: {
      const u = v as DuckDBUnionValue;
      return jsonText(u.value, type.memberTypes[type.memberTags.indexOf(u.tag)]!);
    }
    default:
      return JSON.stringify(String(v));
  }
}

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
type ParsedSql = { error: false; statements: { node: unknown }[] } | { error: true; error_type: string; error_message: string };

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
  static async open(options: { file?: string; readOnly?: boolean; progress?: boolean; memoryLimit?: string } = {}): Promise<Database> {
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

  /** DuckDB's thread count (the machine's cores, unless set). */
  async threads(): Promise<number> {
    return Number((await this.query(`select current_setting('threads') as n`)).rows[0]?.n ?? 1);
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
   * in a sandbox), gathered whole: the library's sql(). `maxRows` bounds what is gathered.
   */
  async statements(sql: string, source = 'query', limits: Limits & { maxRows?: number } = {}): Promise<Result> {
    let columns: string[] = [];
    let types: string[] = [];
    const rows: Row[] = [];
    await this.streamStatements(
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
   * Run the statements of `sql` one after the other and hand the last one's rows to `sink`, a chunk
   * (DuckDB's, ~2,048 rows) at a time, as DuckDB makes them: the result is never held whole. Every
   * statement before the last must be one whose result is DuckDB's status line (CREATE, INSERT,
   * SET, …): one that returns rows is refused, as its rows would print nowhere. A statement that
   * begins, commits or rolls back a transaction is refused before it runs: it would end the
   * sandbox's own, and what follows would last. With `limits.timeout` (seconds), the query is
   * interrupted once it has run that long.
   */
  async streamStatements(sql: string, source: string, sink: RowSink, limits: Limits = {}): Promise<void> {
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
    let interrupted = false;
    const seconds = limits.timeout ?? 0;
    const timer =
      seconds > 0
        ? setTimeout(() => {
            interrupted = true;
            this.con.interrupt();
          }, seconds * 1000)
        : undefined;
    const fail = (err: unknown): never => {
      if (err instanceof QueryError) throw err;
      const message = (err as Error).message;
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
    try {
      // An interrupt that comes while no statement runs (between two, or while rows are printed)
      // reaches none: the flag is checked before each step too.
      const check = () => {
        if (interrupted) fail(new Error('Interrupted'));
      };
      for (let i = 0; i < n; i++) {
        check();
        const prepared = await extracted.prepare(i).catch(fail);
        if (prepared.statementType === StatementType.TRANSACTION) throw transactionError(source, i);
        if (i < n - 1) {
          if (returnsRows(prepared)) {
            throw new QueryError(
              `${source}: statement ${i + 1} of ${n} returns rows, which would not be printed: only the last statement's are`,
              'run it on its own, or make it the last',
            );
          }
          await prepared.run().catch(fail);
          continue;
        }
        const columns = deduplicated(Array.from({ length: prepared.columnCount }, (_, c) => prepared.columnName(c)));
        const types = Array.from({ length: prepared.columnCount }, (_, c) => prepared.columnType(c));
        // DuckDB's own text form (CAST(x AS VARCHAR)): a SELECT is run wrapped in that cast.
        const asText =
          sink.mode === 'text' && prepared.statementType === StatementType.SELECT ? await this.textPrepared(sql, n) : undefined;
        const result = await (asText ?? prepared).stream().catch(fail);
        // The columns are handed over once the first chunk is made: a query that fails or is
        // interrupted before it has a row prints nothing.
        for (let first = true; ; first = false) {
          check();
          const chunk = await result.fetchChunk().catch(fail);
          if (first) await sink.columns(columns.map((name, c) => ({ name, type: types[c]!.toString() })));
          // An interrupted stream may end as if it were complete: the flag tells.
          if (chunk === null || chunk.rowCount === 0) {
            check();
            break;
          }
          // Column by column: node-api's row by row reads the chunk's shape again for every row.
          const cols = chunk.getColumns();
          const rows = Array.from({ length: chunk.rowCount }, (_, r) => cols.map((col) => col[r]!));
          if (sink.mode === 'json') await sink.rows(rows.map((r) => r.map((v, c) => jsonText(v, types[c]!))));
          // Not a SELECT (DESCRIBE, PRAGMA, …): node-api's text, DuckDB's for these statements' types.
          else if (sink.mode === 'text') await sink.rows(rows.map((r) => r.map((v) => (v === null ? null : String(v)))));
          else await sink.rows(rows.map((r) => r.map((v, c) => (v === null ? null : toPlain(v, types[c]!, JSDuckDBValueConverter)))));
        }
      }
    } catch (err) {
      fail(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The last statement of `sql` (`n` of them), a SELECT, wrapped so that DuckDB casts each column
   * to VARCHAR; undefined when it cannot be (DuckDB then runs it as it is). DuckDB finds the
   * statement: it is the text after the last semicolon that leaves one statement after it and
   * n - 1 before it (a semicolon inside a string or comment does not); one with all n before it
   * has only blanks or comments after it.
   */
  private async textPrepared(sql: string, n: number): Promise<DuckDBPreparedStatement | undefined> {
    const count = (text: string) =>
      this.con.extractStatements(text).then(
        (e) => e.count,
        () => -1,
      );
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
    return this.con.prepare(`select cast(columns(*) as varchar) from (${last}\n)`).catch(() => undefined);
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
      types.push(
        await extracted.prepare(i).then(
          (p) => StatementType[p.statementType] ?? 'UNKNOWN',
          () => 'UNKNOWN',
        ),
      );
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
    if (this.borrowed) {
      this.con.closeSync();
      return;
    }
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

/** Strings as a bound list parameter, as they are (paths for a file reader take pathList). */
export function textList(values: string[]): DuckDBValue {
  return listValue(values);
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
