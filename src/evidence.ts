/**
 * An opened set of probes: the DuckDB database they were loaded into, and the operations every
 * front end shares. The CLI and the library (index.ts) are both built on this class; it returns
 * plain rows, and index.ts wraps them as arquero tables.
 */
import { Database, type Params, type Result } from './db.js';
import type { CensusRow } from './census-text.js';
import { bundledProbeDir } from './paths.js';
import { loadProbes, type Probe } from './probe.js';
import { readQuery } from './queries.js';

export interface OpenOptions {
  /** Called with each warning as loading finds it (the CLI prints them on stderr). Default: collect only. */
  onWarning?: (message: string) => void;
}

export class Evidence {
  private constructor(
    readonly db: Database,
    readonly probes: Probe[],
    readonly warnings: string[],
  ) {}

  /** Load probe directories (the bundled probe when `paths` is empty) into a fresh in-memory database. */
  static async open(paths: string[] = [], options: OpenOptions = {}): Promise<Evidence> {
    const db = await Database.open();
    try {
      const loaded = await loadProbes(db, paths.length ? paths : [bundledProbeDir]);
      for (const w of loaded.warnings) options.onWarning?.(w);
      await db.seal();
      return new Evidence(db, loaded.probes, loaded.warnings);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Run queries/<name>.sql with its parameters. */
  async query(name: string, params?: Params): Promise<Result> {
    const q = readQuery(name);
    return this.db.query(q.sql, params, q.source);
  }

  /** The census rows, one per spawn, in probe then seq order. */
  async censusRows(): Promise<CensusRow[]> {
    return (await this.query('census')).rows as unknown as CensusRow[];
  }

  close(): void {
    this.db.close();
  }
}
