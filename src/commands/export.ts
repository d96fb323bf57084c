/**
 * `omg-evidence export --parquet DIR [PROBE...]`: every documented view as Parquet, partitioned
 * by probe (hive style, DIR/<view>/probe=<id>/…), so the same queries run on any Parquet engine.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { sqlString } from '../db.js';
import { InputError } from '../errors.js';
import { withUnsealed } from '../evidence.js';
import { warn, type IO } from '../io.js';
import { displayPath } from '../paths.js';
import { transcriptsOption } from '../options.js';
import { VIEWS } from '../views.js';

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
          if (v.transcripts) {
            if (!ev.hasTranscripts) continue;
            // Transcript views belong to no probe: one unpartitioned file each.
            await ev.db.exec(`COPY ${v.name} TO ${sqlString(`${target}.parquet`)} (FORMAT parquet)`, undefined, `export ${v.name}`);
          } else {
            await ev.db.exec(
              `COPY ${v.name} TO ${sqlString(target)} (FORMAT parquet, PARTITION_BY (probe)${opts.force ? ', OVERWRITE' : ''})`,
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
