/**
 * `omg-evidence export --parquet DIR [PROBE...]`: every documented view as Parquet, partitioned
 * by probe (hive style, DIR/<view>/probe=<id>/…), so the same queries run on any Parquet engine.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { sqlString } from '../../db/database.js';
import { InputError } from '../../base/errors.js';
import { withUnsealed } from '../../evidence.js';
import { warn, type IO } from '../io.js';
import { firstHomePath, HOME_PATH_RE2 } from '../../base/leaks.js';
import { displayPath } from '../../base/paths.js';
import { transcriptsOption } from '../options.js';
import { VIEWS } from '../../db/views.js';

/**
 * What is written of the views whose columns hold paths of the machine that exports: only paths
 * relative to the probe or to the transcripts folder.
 */
const RELATIVE: Record<string, string> = {
  // notes.jsonl sits at the probe's root, so its name is its path relative to the probe.
  spawn_notes: `select * replace (regexp_extract(file, '[^/\\\\]*$') as file) from spawn_notes`,
  // file is relative to the transcripts folder already; dir and abs are absolute.
  transcript_files: `select * exclude (dir, abs) from transcript_files`,
};

/**
 * The rows of a transcript view that hold a home-directory path (leaks.ts), as one row: how many,
 * and the first path. Record views are not searched here: loading warns of their files already.
 */
const HOME_PATH_ROWS = (from: string) =>
  `select count(*) as n, min(p) as path from (select regexp_extract(to_json(t)::VARCHAR, $re, 1, 'i') as p from ${from} t) where p <> '' having n > 0`;

export function makeExportCommand(io: IO): Command {
  return new Command('export')
    .description('write every view as Parquet, hive-partitioned by probe')
    .argument('[probe...]', 'probe directories')
    .requiredOption('--parquet <dir>', 'the folder to write')
    .addOption(transcriptsOption())
    .option('--force', 'write into a folder that is not empty, replacing what it holds')
    .action(async (probes: string[], opts: { parquet: string; transcripts?: string; force?: boolean }) => {
      const out = resolve(opts.parquet);
      if (existsSync(out) && readdirSync(out).length && !opts.force) {
        throw new InputError(`${displayPath(out)}: not empty`, 'name an empty or new folder, or pass --force to replace its views');
      }
      mkdirSync(out, { recursive: true });
      // Export writes files, so it loads into a database that is never given user SQL.
      await withUnsealed(probes, { transcripts: opts.transcripts, onWarning: (w) => warn(io, w) }, async (ev) => {
        let written = 0;
        for (const v of VIEWS) {
          const target = join(out, v.name);
          const from = RELATIVE[v.name] ? `(${RELATIVE[v.name]})` : v.name;
          if (v.transcripts) {
            if (!ev.hasTranscripts) continue;
            // Transcript views belong to no probe: one unpartitioned file each.
            const leaks = await ev.db.query(HOME_PATH_ROWS(from), { re: HOME_PATH_RE2 }, `export ${v.name}`);
            const first = leaks.rows[0];
            if (first) {
              const path = firstHomePath(String(first.path))?.text ?? String(first.path);
              warn(
                io,
                `export: ${v.name}: ${first.n} row(s) hold a home-directory path (first: ${path}); the Parquet file keeps them as they are`,
              );
            }
            await ev.db.exec(`COPY ${from} TO ${sqlString(`${target}.parquet`)} (FORMAT parquet)`, undefined, `export ${v.name}`);
          } else {
            await ev.db.exec(
              `COPY ${from} TO ${sqlString(target)} (FORMAT parquet, PARTITION_BY (probe)${opts.force ? ', OVERWRITE' : ''})`,
              undefined,
              `export ${v.name}`,
            );
          }
          written++;
        }
        io.stderr(`omg-evidence: export: ${written} view(s) written to ${displayPath(out)}\n`);
      });
    });
}
