/**
 * `omg-evidence export --parquet DIR [PROBE...]`: every documented view as Parquet, partitioned
 * by probe (hive style, DIR/<view>/probe=<id>/…), so the same queries run on any Parquet engine.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { InputError } from '../../base/errors.js';
import { exportParquet } from '../../evidence.js';
import { warn, type IO } from '../io.js';
import { displayPath } from '../../base/paths.js';
import { transcriptsOption } from '../options.js';

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
      const written = await exportParquet(probes, out, { transcripts: opts.transcripts, force: opts.force, onWarning: (w) => warn(io, w) });
      io.stderr(`omg-evidence: export: ${written} view(s) written to ${displayPath(out)}\n`);
    });
}
