/**
 * An opened set of probes and/or transcripts: the DuckDB database they were loaded into, and the
 * operations every front end shares. The CLI and the library (index.ts) are both built on this
 * class; it returns plain rows, and index.ts wraps them as arquero tables.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import { Database, type Result, type Row } from './db.js';
import type { CensusRow } from './census-text.js';
import { InputError, UsageError } from './errors.js';
import { bundledProbeDir, displayPath } from './paths.js';
import { loadProbes, loadResultsFile, type Probe } from './probe.js';
import { readQuery } from './queries.js';
import { evaluateRegistration } from './registration.js';
import { loadTranscripts } from './transcripts.js';

export type Source = 'records' | 'transcripts';

export interface OpenOptions {
  /** Called with each warning as loading finds it (the CLI prints them on stderr). */
  onWarning?: (message: string) => void;
  /**
   * Load transcripts too: `true` for each probe's own `transcripts/` folder, or a directory to use
   * instead. Default: no transcripts.
   */
  transcripts?: boolean | string;
}

export class Evidence {
  private constructor(
    readonly db: Database,
    readonly probes: Probe[],
    readonly warnings: string[],
    /** Whether transcripts were loaded (queries with from = 'transcripts' need them). */
    readonly hasTranscripts: boolean,
  ) {}

  /** Load probe directories (the bundled probe when `paths` is empty) into a fresh in-memory database. */
  static async open(paths: string[] = [], options: OpenOptions = {}): Promise<Evidence> {
    return Evidence.load(paths.length ? paths : [bundledProbeDir], options);
  }

  /** Load only the session transcripts under `dir`: no probe, so only the transcript queries apply. */
  static async openTranscripts(dir: string, options: Pick<OpenOptions, 'onWarning'> = {}): Promise<Evidence> {
    return Evidence.load([], { ...options, transcripts: dir });
  }

  /** Load a lone results.jsonl and the transcripts under `transcripts`: what `extract` needs. */
  static async openForExtract(results: string, transcripts: string, options: Pick<OpenOptions, 'onWarning'> = {}): Promise<Evidence> {
    return Evidence.load([], { ...options, transcripts }, results);
  }

  private static async load(paths: string[], options: OpenOptions, resultsFile?: string): Promise<Evidence> {
    const db = await Database.open();
    try {
      const loaded = resultsFile ? await loadResultsFile(db, resultsFile) : await loadProbes(db, paths);
      for (const w of loaded.warnings) options.onWarning?.(w);
      let dirs: string[] = [];
      if (typeof options.transcripts === 'string') dirs = [options.transcripts];
      else if (options.transcripts === true) dirs = loaded.probes.map((p) => defaultTranscripts(p));
      await loadTranscripts(db, dirs);
      await db.seal();
      return new Evidence(db, loaded.probes, loaded.warnings, options.transcripts !== undefined && options.transcripts !== false);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Run queries/<name>.sql, given the parameters its header declares (others are left out). */
  async query(name: string, params: Record<string, DuckDBValue> = {}): Promise<Result> {
    const q = readQuery(name);
    const missing = q.params.filter((p) => !(p in params));
    if (missing.length) throw new UsageError(`${q.source} needs the parameter(s) ${missing.join(', ')}`);
    const given = Object.fromEntries(q.params.map((p) => [p, params[p]!]));
    return this.db.query(q.sql, q.params.length ? given : undefined, q.source);
  }

  private async rows(name: string, params?: Record<string, DuckDBValue>): Promise<Row[]> {
    return (await this.query(name, params)).rows;
  }

  /** The census rows, one per spawn, in probe then seq order. */
  async censusRows(from: Source = 'records'): Promise<CensusRow[]> {
    this.need(from);
    return (await this.rows('census', { from })) as unknown as CensusRow[];
  }

  /** One row per session of the loaded transcripts (queries/sessions.sql). */
  async sessionRows(): Promise<Row[]> {
    this.need('transcripts');
    return this.rows('sessions');
  }

  /** One row per Skill call, paired with its result (queries/skills.sql). */
  async skillRows(from: Source = 'records'): Promise<Row[]> {
    this.need(from);
    return this.rows('skills', { from });
  }

  /** The two derivations of the census compared (queries/agree.sql). */
  async agreeRows(): Promise<Row[]> {
    this.need('transcripts');
    return this.rows('agree');
  }

  private evaluated = false;

  /** Run every registered trigger and conjunct check once (registration.ts). */
  async evaluateRegistration(): Promise<void> {
    if (this.evaluated) return;
    await evaluateRegistration(this.db, this.probes);
    this.evaluated = true;
  }

  /** The per-arm result table (queries/arms.sql). */
  async armRows(): Promise<Row[]> {
    await this.evaluateRegistration();
    return this.rows('arms');
  }

  private need(from: Source): void {
    if (from === 'transcripts' && !this.hasTranscripts) {
      throw new InputError('transcripts were not loaded', 'open with { transcripts: true } or a transcripts directory');
    }
  }

  close(): void {
    this.db.close();
  }
}

/** A probe's own transcripts folder; an error when it has none, since real probes rarely commit them. */
function defaultTranscripts(p: Probe): string {
  const dir = join(p.dir, 'transcripts');
  if (!existsSync(dir)) {
    throw new InputError(
      `${displayPath(p.dir)}: the probe has no transcripts/ folder`,
      'pass --transcripts DIR, the folder of its session files (e.g. ~/.claude/projects/<slug>)',
    );
  }
  return dir;
}
