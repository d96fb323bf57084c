/**
 * Writing every documented view as Parquet (`omg-evidence export`): record views hive-partitioned
 * by probe, transcript views one file each. Paths of the exporting machine are not written: the
 * views that hold them are written relative (sql/export/*.sql).
 */
import { firstHomePath, HOME_PATH_RE2 } from '../base/home-paths.js';
import { type Database, sqlString } from './database.js';
import { readSql } from './queries.js';
import { VIEWS } from './views.js';
import { join } from 'node:path';

export interface ExportOptions {
  hasTranscripts: boolean;
  onWarning?: (message: string) => void;
}

/** The views written other than as they are, by name: what sql/export/<name>.sql selects instead. */
const RELATIVE = new Set(['spawn_notes', 'transcript_files']);

/** Write each view into `dir`, a new folder (load/export-target.ts, inStage); returns how many were written. */
export async function exportViews(db: Database, dir: string, options: ExportOptions): Promise<number> {
  let written = 0;
  for (const v of VIEWS) {
    const target = join(dir, v.name);
    const from = RELATIVE.has(v.name) ? `(${readSql(`export/${v.name}`)})` : v.name;
    if (v.source) {
      // The transcript views and the price table they are priced by belong to no probe: one
      // unpartitioned file each, written with the transcripts.
      if (!options.hasTranscripts) continue;
      const leaks = await db.query(
        readSql('export/home-path-rows').replaceAll('__VIEW__', from),
        { re: HOME_PATH_RE2 },
        `export ${v.name}`,
      );
      const first = leaks.rows[0];
      if (first) {
        const path = firstHomePath(String(first.path))?.text ?? String(first.path);
        options.onWarning?.(
          `export: ${v.name}: ${first.n} row(s) hold a home-directory path (first: ${path}); the Parquet file keeps them as they are`,
        );
      }
      await db.exec(`COPY ${from} TO ${sqlString(`${target}.parquet`)} (FORMAT parquet)`, undefined, `export ${v.name}`);
    } else {
      await db.exec(`COPY ${from} TO ${sqlString(target)} (FORMAT parquet, PARTITION_BY (probe))`, undefined, `export ${v.name}`);
    }
    written++;
  }
  return written;
}
