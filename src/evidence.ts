/**
 * An opened set of probes and/or transcripts: the DuckDB database they were loaded into (in memory,
 * or a database file `load` built), and the operations every front end shares. The CLI uses the
 * row methods (`censusRows`, …); the library's methods (`census()`, …) return the same rows as
 * arquero tables.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { ColumnTable } from 'arquero';
import { type CensusRow, type ForgeableRow, withForgeable } from './output/census-block.js';
import type { Database, Limits, Result, Row, RowSink } from './db/database.js';
import { UsageError } from './base/errors.js';
import { discoverProbe, inputFiles, namedInputs, type Inputs, type Probe, refuseRepeatedProbes } from './load/inputs.js';
import { readQuery, readSql } from './db/queries.js';
import { evaluateRegistration } from './analysis/registration.js';
import { buildDatabaseFile } from './load/database-file.js';
import { type Opened, openSealed, openSealedForExtract } from './load/open-sealed.js';
import type { OpenOptions } from './load/open.js';
import * as args from './load/open-options.js';
export { exportParquet, type OpenOptions } from './load/open.js';
export { transcriptTablesNamed, unloadedTables } from './load/tables-named.js';
import { table, tabled, type Tabled } from './output/arquero.js';
import { verdicts, type Verdict } from './analysis/verdict.js';
import { auditProbes as audit, type Audit } from './analysis/audit.js';
import { physicalLine } from './load/jsonl.js';
import type { ExtractOptions, ExtractReport } from './load/extract.js';
import type { ProbeReport, TranscriptReport } from './output/html.js';
import { probeReports, transcriptReport } from './analysis/report.js';
export { PROBE_REPORT_QUERIES, TRANSCRIPT_REPORT_QUERIES } from './analysis/report.js';

// What the front ends (cli/, regions/) use of the layers below, through the facade alone (no loader directly).
export { listTranscriptFiles } from './load/inputs.js';
export { claudeSessionsDir, homeOf } from './load/sessions-home.js';
export type { Row, Result } from './db/database.js';
export type { Progress } from './load/transcripts.js';
export type { ExtractReport } from './load/extract.js';
export { VIEWS, type View } from './db/views.js';
export { listQueries, readQuery, type Query } from './db/queries.js';
export { type Audit, auditMask, type Finding } from './analysis/audit.js';

/** Audit probe directories for leaks (analysis/audit.ts), refused and found to be probes as load/ refuses and finds them. */
export const auditProbes = (dirs: string[], home?: string): Audit => audit(dirs, home, discoverProbe, refuseRepeatedProbes);
export { type Budget, type Conjunct, requirePreregistered, type Verdict, VERDICT_QUERIES } from './analysis/verdict.js';
export { costReports, type CostReport } from './analysis/cost.js';

export type Source = 'records' | 'transcripts';

/** Bounds on sql(): see Limits in db/database.ts. */
export interface SqlOptions {
  /** Seconds after which the query is interrupted (default 60; 0: none). */
  timeout?: number;
  /** The most rows sql() gathers into its table (default 1,000,000); more is an error. */
  maxRows?: number;
}

export class Evidence {
  #evaluated: Promise<void> | undefined;
  #closed = false;
  /**
   * The connection the evidence was loaded on, sealed and private. Only omg-evidence's own SQL runs
   * on it (queries/, the loaders'); the user's goes through sql(), in a sandbox.
   */
  readonly #db: Database;
  readonly #inputs: Inputs;
  /** Whether transcripts were loaded (queries with from = 'transcripts' need them). */
  readonly hasTranscripts: boolean;
  /** The only queries this evidence runs (OpenOptions.queries); undefined: any. */
  readonly only?: readonly string[];

  readonly #probes: readonly Readonly<Probe>[];
  readonly #warnings: readonly string[];
  readonly #checkTimeout: number | undefined;
  readonly #sqlOnly: boolean;

  /** The loaded probes, frozen: verdict() reads each one's registration from its dir. */
  get probes(): readonly Readonly<Probe>[] {
    return this.#probes;
  }

  /** What loading warned of. */
  get warnings(): readonly string[] {
    return this.#warnings;
  }

  private constructor(opened: Opened, checkTimeout?: number) {
    this.#db = opened.db;
    this.#checkTimeout = checkTimeout;
    this.#sqlOnly = opened.sqlOnly === true;
    this.#inputs = opened.inputs;
    this.hasTranscripts = opened.hasTranscripts;
    this.only = opened.only && Object.freeze([...opened.only]);
    // Nothing a library user sets afterwards may point the verdict at other check files.
    this.#probes = Object.freeze(opened.probes.map((p) => Object.freeze({ ...p })));
    this.#warnings = Object.freeze([...opened.warnings]);
    // Nor widen what it runs (only) or reads (hasTranscripts): every public field is read-only.
    Object.freeze(this);
  }

  /** Load probe directories (the bundled probe when `paths` is empty; one may be a string), or read `options.db`. */
  static async open(paths: string[] | string = [], options: OpenOptions = {}): Promise<Evidence> {
    const list = typeof paths === 'string' ? [paths] : paths;
    // Plain JavaScript can pass anything: refused in words, not with a TypeError from deep inside.
    // Array.from: some() skips the holes of a sparse array, which would then reach the loader.
    if (!Array.isArray(list) || Array.from(list).some((p) => typeof p !== 'string' || p === '')) {
      throw new UsageError('openEvidence(paths): paths must be a probe directory or a list of them (non-empty strings)');
    }
    return new Evidence(await openSealed(list, args.checkOptions(options), true), options.checkTimeout);
  }

  /** Load only the session transcripts under `dir`: no probe, so only the transcript queries apply. */
  static async openTranscripts(dir: string, options: Omit<OpenOptions, 'transcripts'> = {}): Promise<Evidence> {
    return new Evidence(await openSealed([], args.checkTranscriptsDir(dir, options), false), options.checkTimeout);
  }

  /** Load a lone results.jsonl and the transcripts under `transcripts`: what `extract` needs. */
  static async openForExtract(results: string, transcripts: string, options: Pick<OpenOptions, 'onWarning'> = {}): Promise<Evidence> {
    return new Evidence(await openSealedForExtract(results, transcripts, options.onWarning));
  }

  /**
   * Build database file `file` from the named inputs (`omg-evidence load`, load/database-file.ts).
   * Returns false, writing nothing, when `file` is already current (unless `force`).
   */
  static async build(paths: string[], options: OpenOptions & { file: string; force?: boolean }, probesDefault = true): Promise<boolean> {
    args.checkBuildArguments(paths, options, probesDefault);
    const inputs = namedInputs(paths, options.transcripts, probesDefault, options.ownTranscripts);
    return buildDatabaseFile(inputs, options.file, options);
  }

  /** Run queries/<name>.sql, given the parameters its header declares (no other), once the checks it reads have run. */
  async query(name: string, params: Record<string, DuckDBValue> = {}): Promise<Result> {
    if (this.only && !this.only.includes(name)) args.refuse(this.only, `queries/${name}.sql`, name);
    if (this.#sqlOnly) args.refuseTables(`queries/${name}.sql`);
    const q = readQuery(name);
    const given = args.checkQueryParams(q, params, this.hasTranscripts);
    if (args.readsAnswers(q)) await this.evaluateRegistration();
    return this.#open().select(q.sql, q.params.length ? given : undefined, q.source);
  }

  private async rows(name: string, params?: Record<string, DuckDBValue>): Promise<Row[]> {
    return (await this.query(name, params)).rows;
  }

  /**
   * Run the user's SQL (from `source`) in a sandbox (Database.sandbox): no later method sees a change. Bounded
   * as sql() is: with its default timeout and row limit unless `limits` says otherwise.
   */
  async sqlResult(text: string, source = 'query', limits: Limits & { maxRows?: number } = {}): Promise<Result> {
    if (this.only) args.refuse(this.only, 'SQL');
    return this.#open().sandbox((box) => box.statements(text, source, args.checkSqlLimits('sqlResult', text, limits)));
  }

  /**
   * Run the user's SQL as sqlResult does, handing the last statement's rows to `sink` a chunk at a
   * time (Database.streamStatements): what the CLI prints, never held whole.
   */
  async sqlStream(text: string, source: string, sink: RowSink, limits: Limits = {}): Promise<void> {
    if (this.only) args.refuse(this.only, 'SQL');
    return this.#open().sandbox((box) => box.streamStatements(text, source, sink, args.checkSqlLimits('sqlStream', text, limits)));
  }

  /**
   * The census rows, one per spawn, in probe then seq order, each with its forgeable markers and
   * artifacts (forgeableRows), whichever source the census is derived from. With
   * `{ forgeable: false }` that column is null and not computed (the ADR's text block has none).
   */
  async censusRows(from: Source = 'records', options: { forgeable?: boolean } = {}): Promise<CensusRow[]> {
    args.checkSource(from, 'census', this.hasTranscripts);
    const rows = (await this.rows('census', { from })) as unknown as Omit<CensusRow, 'forgeable'>[];
    if (options.forgeable === false) return rows.map((r) => ({ ...r, forgeable: null }));
    return withForgeable(rows, await this.forgeableRows());
  }

  /** One row per session of the loaded transcripts (queries/sessions.sql). */
  async sessionRows(): Promise<Row[]> {
    args.checkSource('transcripts', 'transcripts', this.hasTranscripts);
    return this.rows('sessions');
  }

  /** One row per Skill call, paired with its result (queries/skills.sql). */
  async skillRows(from: Source = 'records'): Promise<Row[]> {
    args.checkSource(from, 'skills', this.hasTranscripts);
    return this.rows('skills', { from });
  }

  /** The two derivations of the census compared (queries/agree.sql). */
  async agreeRows(): Promise<Row[]> {
    args.checkSource('transcripts', 'transcripts', this.hasTranscripts);
    return this.rows('agree');
  }

  /**
   * Per probe, its spawns and how many of them a loaded transcript holds the session of: a
   * transcripts folder that matches none is worth a warning, never a silent column of `gone`.
   */
  async transcriptMatches(): Promise<{ probe: string; spawns: number; matched: number }[]> {
    args.checkSource('transcripts', 'transcripts', this.hasTranscripts);
    const matches = await this.#open().select(readSql('transcript-matches'), undefined, 'sql/transcript-matches.sql');
    return matches.rows as { probe: string; spawns: number; matched: number }[];
  }

  /**
   * The registered markers and artifacts the spawn's own tool calls could have produced, and those
   * where that cannot be established, saying why (queries/forgeable.sql; without transcripts, all).
   */
  async forgeableRows(): Promise<ForgeableRow[]> {
    return (await this.rows('forgeable')) as unknown as ForgeableRow[];
  }

  /** Run every registered trigger and conjunct check once (registration.ts), even when asked twice at once. */
  async evaluateRegistration(): Promise<void> {
    args.refuseRegistrationUnread(this.only, this.#sqlOnly);
    this.#evaluated ??= evaluateRegistration(this.#open(), this.probes, physicalLine, this.#checkTimeout);
    return this.#evaluated;
  }

  /** The per-arm result table (queries/arms.sql). */
  async armRows(): Promise<Row[]> {
    await this.evaluateRegistration();
    return this.rows('arms');
  }

  // The library: the same data as arquero tables. arquero loads on first use, so the CLI,
  // which never calls these, does not pay for it at start-up.

  /** The census, one row per spawn (`tools` as {name, count} lists). */
  async census(from: Source = 'records'): Promise<ColumnTable> {
    return table((await this.censusRows(from)) as unknown as Row[]);
  }

  /** Every Skill call, paired with its result. */
  async skills(from: Source = 'records'): Promise<ColumnTable> {
    return table(await this.skillRows(from));
  }

  /** The markers and artifacts the spawns' own tool calls could have produced (queries/forgeable.sql). */
  async forgeable(): Promise<ColumnTable> {
    return table((await this.forgeableRows()) as unknown as Row[]);
  }

  /** The per-arm result table. */
  async arms(): Promise<ColumnTable> {
    return table(await this.armRows());
  }

  /** The verdict of each probe: its conjuncts, completeness and uniformity as tables, and the rest as values. */
  async verdict(): Promise<LibraryVerdict[]> {
    return Promise.all((await this.verdicts()).map((v) => tabled(v, ['conjuncts', 'completeness', 'uniformity'])));
  }

  /** What was spent: one row per probe, with by-arm and by-model tables beside it. */
  async cost(): Promise<{ totals: ColumnTable; by_arm: ColumnTable; by_model: ColumnTable }> {
    const [totals, byArm, byModel] = await Promise.all(['cost', 'cost_by_arm', 'cost_by_model'].map((q) => this.rows(q)));
    return { totals: await table(totals!), by_arm: await table(byArm!), by_model: await table(byModel!) };
  }

  /**
   * Any SQL over the loaded views, as an arquero table. The table holds every row, so sql()
   * gathers them: at most `maxRows` (default 1,000,000), within DuckDB's memory limit
   * (OpenOptions.memoryLimit), and interrupted after `timeout` seconds (default 60; 0: none).
   */
  async sql(text: string, options: SqlOptions = {}): Promise<ColumnTable> {
    const { timeout, maxRows } = args.checkSqlArguments(text, options);
    const res = await this.sqlResult(text, 'query', { timeout, timeoutName: 'timeout', memoryName: 'memoryLimit', maxRows });
    return table(res.rows, res.columns);
  }

  /** The verdict of each probe (analysis/verdict.ts), as the CLI and render print it. */
  async verdicts(): Promise<Verdict[]> {
    return verdicts(this);
  }

  /** What each probe's report shows (analysis/report.ts gathers it, output/html.ts lays it out). */
  async probeReports(options: { home?: string } = {}): Promise<ProbeReport[]> {
    return (await probeReports(this, (dir) => auditProbes([dir], options.home))) as unknown as ProbeReport[];
  }

  /** What the sessions' part of a report shows, read from `source` (`files` session files). */
  async transcriptReport(source: string, files: number): Promise<TranscriptReport> {
    return transcriptReport(this, source, files);
  }

  /** Write the probe's records from its transcripts (load/extract.ts); opened with openForExtract. */
  async extract(options: ExtractOptions): Promise<ExtractReport> {
    const { extract } = await import('./load/extract.js');
    return extract(this, options, this.#inputs.transcripts);
  }

  /** Every column of every table the loaders built, with DuckDB's type: table_name, column_name, data_type. */
  async viewColumns(): Promise<Row[]> {
    return (await this.#open().sandbox((box) => box.query(readSql('view-columns')))).rows;
  }

  /** The absolute path of every file the loaders read, sorted. */
  async sourceFiles(): Promise<string[]> {
    return (await this.#open().sandbox((box) => box.query('select abs from source_files order by abs'))).rows.map((r) => String(r.abs));
  }

  /** Every input file it was opened from (as `--db` checks them), absolute and sorted; `{ transcripts: false }`: the probes' alone. */
  inputFiles(options: { transcripts?: boolean } = {}): string[] {
    return inputFiles({ probes: this.#inputs.probes, transcripts: options.transcripts === false ? [] : this.#inputs.transcripts });
  }

  /** Release the database. Closing twice is harmless; any other method afterwards is a UsageError. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** The database, unless close() has released it: DuckDB would then speak of a connection the caller never saw. */
  #open(): Database {
    if (this.#closed) {
      throw new UsageError('this evidence is closed', 'open it again with openEvidence(), and call close() when done with it');
    }
    return this.#db;
  }
}

/** A verdict for the library: its conjuncts, completeness and uniformity as arquero tables. */
export type LibraryVerdict = Tabled<Verdict, 'conjuncts' | 'completeness' | 'uniformity'>;
