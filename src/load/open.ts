/**
 * Loading the named inputs into a fresh in-memory database, unsealed: what the facade
 * (evidence.ts) opens, builds a database file from, and exports from.
 */
import { Database } from '../db/database.js';
import { readQuery } from '../db/queries.js';
import { findTranscripts, type Inputs, type Probe, type TranscriptFile } from './inputs.js';
import { loadProbes } from './probe.js';
import { loadTranscripts, type Progress } from './transcripts.js';

/** What loading is told by the facade's OpenOptions (which see). */
export interface LoadInputsOptions {
  onWarning?: (message: string) => void;
  onProgress?: (p: Progress) => void;
  queries?: string[];
}

/** Evidence loaded into a database that is not sealed: what `export` and `build` write from. */
export interface Loaded {
  db: Database;
  probes: Probe[];
  warnings: string[];
  hasTranscripts: boolean;
  /** LoadInputsOptions.queries. */
  only?: readonly string[];
}

/** Load resolved inputs into a fresh in-memory database, unsealed. */
export async function loadInputs(inputs: Inputs, options: LoadInputsOptions): Promise<Loaded> {
  // DuckDB starts on a worker thread while the transcript files are listed (and their folders
  // checked) on this one.
  const opening = Database.open({ progress: options.onProgress !== undefined });
  let files: TranscriptFile[];
  try {
    files = findTranscripts(inputs.transcripts);
  } catch (err) {
    await opening.then(
      (db) => db.close(),
      () => undefined,
    );
    throw err;
  }
  const db = await opening;
  try {
    const only = options.queries;
    const reads = only && new Set(only.flatMap((q) => readQuery(q).reads));
    // Queries of transcripts alone, with no probe named, read no probe table, so none is made.
    const probeTables = !reads || inputs.probes.length > 0 || [...reads].some((t) => !t.startsWith('transcript_'));
    // The probes load on a second connection while the transcripts load on this one: neither reads
    // the other's tables. A probe's error is the one thrown when both fail (inParallel), as when
    // the probes loaded first.
    const [, loaded] = await db.inParallel(
      (here) =>
        loadTranscripts(here, files, {
          lines: !reads || reads.has('transcript_lines'),
          results: !reads || reads.has('transcript_tool_results'),
          onProgress: options.onProgress,
          committed: inputs.probes,
        }),
      async (there) => (probeTables ? await loadProbes(there, inputs.probes) : { probes: [], warnings: [] }),
    );
    for (const w of loaded.warnings) options.onWarning?.(w);
    return { db, probes: loaded.probes, warnings: loaded.warnings, hasTranscripts: inputs.transcripts.length > 0, only };
  } catch (err) {
    db.close();
    throw err;
  }
}
