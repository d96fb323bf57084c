/**
 * Loading the named inputs into a fresh in-memory database, unsealed: what the facade
 * (evidence.ts) opens, builds a database file from, and exports from.
 */
import { availableParallelism } from 'node:os';
import { Database } from '../db/database.js';
import { exportViews } from '../db/export.js';
import { inStage, prepareExportFolder, refuseEvidenceOverlap, refuseNullPartitions } from './export-target.js';
import { readQuery } from '../db/queries.js';
import { findTranscripts, namedInputs, ownTranscriptsRead, type Inputs, type Probe, type TranscriptFile } from './inputs.js';
import { loadProbes, loadResultsFile } from './probe.js';
import { spillInto } from './spill.js';
import { checkTranscriptOwners, strayLines } from './transcript-owners.js';
import { REGISTRATION_ANSWERS, registeredTablesRead } from './tables-named.js';
import { loadTranscripts, type Progress } from './transcripts.js';

/** The columns of transcript_tool_uses that only the full pass fills (a lean pass leaves them NULL). */
const FULL_CALL_COLUMNS = /\b(input_keys|agent_id|is_sidechain)\b/;

/**
 * What loading is told of the facade's OpenOptions; `spill`, a folder DuckDB may spill the load into
 * (spill.ts): load --db's, beside the file it writes.
 */
export type LoadInputsOptions = Pick<
  OpenOptions,
  'onWarning' | 'onProgress' | 'queries' | 'tables' | 'pricing' | 'transcripts' | 'ownTranscripts'
> & {
  spill?: string;
};

/** How evidence is opened (Evidence.open and the other openers). */
export interface OpenOptions {
  /** Called with each warning as loading finds it (the CLI prints them on stderr). */
  onWarning?: (message: string) => void;
  /**
   * Load transcripts too: `true` for each probe's own `transcripts/` folder, or a folder to use
   * instead. Default: no transcripts.
   */
  transcripts?: boolean | string;
  /**
   * Without `transcripts`: load each probe's own `transcripts/` folder when it has one (what
   * `forgeableRows` needs), and none when it has not.
   */
  ownTranscripts?: boolean;
  /** Read this database file (built by `load`) instead of loading the evidence. */
  db?: string;
  /**
   * The only queries (names in queries/) this evidence will run: the load then builds only the
   * tables their `reads:` headers name (today that leaves out transcript_tool_results, and the probe
   * tables when no probe is named), and every other query, and sql(), is refused. Default: every
   * table is built. Ignored with `db`.
   */
  queries?: string[];
  /**
   * The only tables the caller's own SQL will read (transcriptTablesNamed): the load then builds
   * only those of the transcript tables, each exact, and every probe table. Default: every table.
   * Ignored with `queries` and with `db`.
   */
  tables?: string[];
  /** Told how a long transcript scan is going (the CLI prints it on a terminal). */
  onProgress?: (p: Progress) => void;
  /**
   * DuckDB's memory_limit once the evidence is loaded (every query after, sql() included), as
   * DuckDB writes sizes: '2GB', '512MiB'. Default: a quarter of the machine's memory.
   */
  memoryLimit?: string;
  /**
   * The price table transcript_messages is priced by, instead of the package's data/pricing.json
   * (docs/views.md, model_prices). Read when the transcripts are loaded, never fetched.
   */
  pricing?: string;
  /**
   * The seconds a probe's registered triggers and conjunct checks may run in all; past them the one
   * running is stopped, an error naming its file (default 60; 0: no limit): a probe's registration is
   * evidence, and a check may be made never to end.
   */
  checkTimeout?: number;
}

/** Evidence loaded into a database that is not sealed: what `export` and `build` write from. */
export interface Loaded {
  db: Database;
  probes: Probe[];
  warnings: string[];
  hasTranscripts: boolean;
  /** LoadInputsOptions.queries. */
  only?: readonly string[];
  /** Built for sql() alone (OpenOptions.tables): a method's queries may read a table it left out. */
  sqlOnly?: boolean;
}

/** Load resolved inputs into a fresh in-memory database, unsealed. */
export async function loadInputs(inputs: Inputs, options: LoadInputsOptions): Promise<Loaded> {
  // DuckDB starts on a worker thread while the transcript files are listed (and their folders
  // checked) on this one.
  const opening = Database.open({ progress: options.onProgress !== undefined });
  let files: TranscriptFile[];
  const skipped: string[] = [];
  try {
    files = findTranscripts(inputs.transcripts, skipped);
  } catch (err) {
    await opening.then(
      (db) => db.close(),
      () => undefined,
    );
    throw err;
  }
  const db = await opening;
  try {
    if (options.spill) await spillInto(db, options.spill);
    const only = options.queries;
    const reads = only && new Set(only.flatMap((q) => readQuery(q).reads));
    // Queries of transcripts alone, with no probe named, read no probe table, so none is made.
    const probeTables = !reads || inputs.probes.length > 0 || [...reads].some((t) => !t.startsWith('transcript_'));
    // Each probe's own transcripts/ (not one folder named for all of them): held to its own spawns.
    const owners = ownTranscriptsRead(options.transcripts, options.ownTranscripts) && inputs.probes.length > 0;
    // A probe's registered checks may read any documented table, whatever the queries are; they run
    // for the queries that read their answers.
    const evaluates = reads !== undefined && REGISTRATION_ANSWERS.some((t) => reads.has(t));
    // The probes load on a second connection while the transcripts load on this one: neither reads
    // the other's tables. A probe's error is the one thrown when both fail (inParallel), as when
    // the probes loaded first.
    const [unpriced, loaded] = await db.inParallel(
      async (here) => {
        // Parsed on this connection, while the probes load on the other.
        const registered = evaluates ? await registeredTablesRead(here, inputs.probes) : [];
        const wanted = reads ? new Set([...reads, ...registered]) : options.tables && new Set(options.tables);
        return loadTranscripts(here, files, {
          lines: !wanted || wanted.has('transcript_lines'),
          results: !wanted || wanted.has('transcript_tool_results'),
          messages: !wanted || wanted.has('transcript_messages') || wanted.has('model_prices'),
          calls: !wanted || ['transcript_sessions', 'transcript_tool_uses', 'transcript_tool_use_copies'].some((t) => wanted.has(t)),
          mirrors: !wanted || wanted.has('transcript_mirrored_calls') || wanted.has('transcript_subagent_results'),
          // Only the full pass fills a call's input_keys, agent_id and is_sidechain: for queries that
          // name one (agree), the user's SQL and the registered checks.
          fullCalls: !reads || registered.length > 0 || only.some((q) => FULL_CALL_COLUMNS.test(readQuery(q).sql)),
          pricing: options.pricing,
          onProgress: options.onProgress,
          committed: inputs.probes,
          owners,
          // The probes load beside, each statement on at most every core.
          beside: inputs.probes.length ? availableParallelism() : 0,
        });
      },
      async (there) => (probeTables ? await loadProbes(there, inputs.probes) : { probes: [], warnings: [] }),
    );
    const orphans = owners && files.length ? await checkTranscriptOwners(db, loaded.probes) : [];
    const warnings = [...skipped, ...loaded.warnings, ...orphans, ...unpriced];
    for (const w of warnings) options.onWarning?.(w);
    // With { tables } alone, only the caller's own SQL knows what it reads (Opened.sqlOnly).
    return {
      db,
      probes: loaded.probes,
      warnings,
      hasTranscripts: inputs.transcripts.length > 0,
      only,
      sqlOnly: !only && options.tables !== undefined,
    };
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Load a lone results.jsonl and the transcripts under `transcripts`, sealed: what `extract` reads.
 * Its queries read neither transcript_lines nor any probe table but spawns.
 */
export async function loadForExtract(
  results: string,
  transcripts: string,
  onWarning?: (message: string) => void,
): Promise<{ db: Database; probes: Probe[]; warnings: string[] }> {
  const skipped: string[] = [];
  const files = findTranscripts([transcripts], skipped);
  for (const w of skipped) onWarning?.(w);
  const db = await Database.open();
  try {
    const loaded = await loadResultsFile(db, results);
    for (const w of loaded.warnings) onWarning?.(w);
    // The loader's own warnings, as census and agree give them: a call written again naming another
    // tool is written from its first copy, which had passed in silence.
    const read = await loadTranscripts(db, files, { lines: false, messages: false, mirrors: false, strays: true });
    read.push(...(await strayLines(db)));
    for (const w of read) onWarning?.(w);
    await db.seal();
    return { db, probes: loaded.probes, warnings: [...loaded.warnings, ...read] };
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Load the named inputs into a database that stays writable (no seal), for `export`, which writes
 * Parquet files from it, and close it once `write` is done. Kept to this module: no Evidence, and
 * so no user SQL, is ever given an unsealed database.
 */
async function withUnsealed<T>(
  paths: string[],
  options: OpenOptions,
  write: (loaded: Loaded) => Promise<T>,
  probesDefault = true,
): Promise<T> {
  const loaded = await loadInputs(namedInputs(paths, options.transcripts, probesDefault, options.ownTranscripts), options);
  try {
    return await write(loaded);
  } finally {
    loaded.db.close();
  }
}

/**
 * Write every documented view of the named inputs as Parquet into `dir` (db/export.ts), from a
 * database no user SQL ever sees; returns how many views were written.
 */
export async function exportParquet(paths: string[], dir: string, options: OpenOptions & { force?: boolean }): Promise<number> {
  // Sessions named with no probe are exported alone, as load and sql read them (not beside the bundled probe).
  const probesDefault = !(paths.length === 0 && typeof options.transcripts === 'string');
  const inputs = namedInputs(paths, options.transcripts, probesDefault, options.ownTranscripts);
  refuseNullPartitions(inputs.probes);
  // Evidence is read-only: --force replaces a view's folder whole, so none may hold an input.
  refuseEvidenceOverlap(dir, inputs);
  const made = prepareExportFolder(dir, options.force);
  return inStage(
    dir,
    (stage) =>
      withUnsealed(
        paths,
        options,
        (loaded) =>
          exportViews(loaded.db, stage, {
            hasTranscripts: loaded.hasTranscripts,
            hasProbes: inputs.probes.length > 0,
            onWarning: options.onWarning,
          }),
        probesDefault,
      ),
    made,
  );
}
