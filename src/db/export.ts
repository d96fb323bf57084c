/**
 * Writing every documented view as Parquet (`omg-evidence export`): record views hive-partitioned
 * by probe, transcript views one file each. Paths of the exporting machine are not written: the
 * views that hold them are written relative (sql/export/*.sql).
 */
import { firstHomePath, HOME_PATH_RE2 } from '../base/home-paths.js';
import { type Database, sqlString } from './database.js';
import { readSql } from './queries.js';
import { VIEWS } from './views.js';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface ExportOptions {
  hasTranscripts: boolean;
  /** False for sessions exported alone: no probe view is written (its folders would hold no file to read). */
  hasProbes?: boolean;
  onWarning?: (message: string) => void;
}

/** The views written other than as they are, by name: what sql/export/<name>.sql selects instead. */
const RELATIVE = new Set(['transcript_files']);

/** Write each view into `dir`, a new folder (load/export-target.ts, inStage); returns how many were written. */
export async function exportViews(db: Database, dir: string, options: ExportOptions): Promise<number> {
  let written = 0;
  let folders: string[] | undefined;
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
      if (options.hasProbes === false) continue;
      await db.exec(`COPY ${from} TO ${sqlString(target)} (FORMAT parquet, PARTITION_BY (probe))`, undefined, `export ${v.name}`);
      if (!existsSync(target) || readdirSync(target).length === 0) {
        folders ??= await probeFolders(db, dir);
        await writeEmpty(db, from, target, folders);
      }
    }
    written++;
  }
  return written;
}

/**
 * The partition folder of each probe exported (`probe=<id>`, as DuckDB escapes the id), found by
 * having DuckDB write one, empty, in a folder it then removes.
 */
async function probeFolders(db: Database, dir: string): Promise<string[]> {
  const names = join(dir, '.probes');
  await db.exec(`COPY (select distinct probe, 0 as x from source_files) TO ${sqlString(names)} (FORMAT parquet, PARTITION_BY (probe))`);
  const folders = existsSync(names) ? readdirSync(names).sort() : [];
  rmSync(names, { recursive: true, force: true });
  return folders;
}

/**
 * A view with no row is written as a file of no row in each probe's folder: its columns and their
 * types are kept, and `read_parquet('DIR/<view>/*\/*.parquet')` finds it (DuckDB writes no folder).
 */
async function writeEmpty(db: Database, from: string, target: string, folders: string[]): Promise<void> {
  for (const folder of folders) {
    mkdirSync(join(target, folder), { recursive: true });
    const file = sqlString(join(target, folder, 'data_0.parquet'));
    await db.exec(`COPY (select * exclude (probe) from ${from} where false) TO ${file} (FORMAT parquet)`, undefined, 'export');
  }
}
