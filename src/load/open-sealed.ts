/**
 * Opening evidence for reading: the named inputs loaded and sealed, or a database file `load`
 * built, checked against them. What the facade (evidence.ts) holds; user SQL only ever sees a
 * database opened here.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkPath } from '../base/path-given.js';
import type { Database } from '../db/database.js';
import { UsageError } from '../base/errors.js';
import { type Inputs, namedInputs, type Probe } from './inputs.js';
import { openDatabaseFile } from './database-file.js';
import { loadForExtract, loadInputs, type OpenOptions } from './open.js';

/** A sealed database and what it was opened from. */
export interface Opened {
  db: Database;
  probes: Probe[];
  warnings: string[];
  /** Whether transcripts were loaded (queries with from = 'transcripts' need them). */
  hasTranscripts: boolean;
  /** The probe directories and transcript folders it was opened from. */
  inputs: Inputs;
  /** The only queries it runs (OpenOptions.queries); undefined: any. */
  only?: readonly string[];
  /** Built for sql() alone (OpenOptions.tables): every other method is refused. */
  sqlOnly?: boolean;
}

/**
 * Load the probes in `paths` (the bundled probe when empty and `probesDefault`) and the transcripts
 * `options` name, and seal the database; or read `options.db`, refused when it was built from
 * other inputs or they changed.
 */
export async function openSealed(paths: string[], options: OpenOptions, probesDefault: boolean): Promise<Opened> {
  if (options.db) {
    // A database file holds the prices it was built with; another table would be silently ignored.
    if (options.pricing !== undefined)
      throw new UsageError(
        'a price table cannot re-price a database file: it holds the prices load built it with',
        'leave out --db to count from the transcripts with --pricing FILE',
      );
    const { db, meta } = await openDatabaseFile(resolve(options.db), paths, options, probesDefault);
    // In the order named, as without --db (the file records them as load was given them); none named: the recorded.
    const named = paths.length ? namedInputs(paths, undefined, false).probes : meta.inputs.probes;
    const probes = named.map((dir) => ({ id: basename(dir), dir, registered: existsSync(join(dir, 'registration')) }));
    return { db, probes, warnings: meta.warnings, hasTranscripts: meta.inputs.transcripts.length > 0, inputs: meta.inputs };
  }
  const inputs = namedInputs(paths, options.transcripts, probesDefault, options.ownTranscripts);
  const loaded = await loadInputs(inputs, options);
  try {
    await loaded.db.seal(options.memoryLimit);
  } catch (err) {
    loaded.db.close();
    throw err;
  }
  return { ...loaded, inputs };
}

/** A lone results.jsonl and the transcripts under `transcripts`, sealed: what `extract` reads. */
export async function openSealedForExtract(results: string, transcripts: string, onWarning?: (message: string) => void): Promise<Opened> {
  const loaded = await loadForExtract(checkPath('the results file', results), checkPath('the transcripts', transcripts), onWarning);
  return { ...loaded, hasTranscripts: true, inputs: { probes: [], transcripts: [resolve(transcripts)] } };
}
