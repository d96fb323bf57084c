/**
 * `omg-evidence export --parquet DIR [PROBE...]`: every documented view as Parquet, partitioned
 * by probe (hive style, DIR/<view>/probe=<id>/…), so the same queries run on any Parquet engine.
 */
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { displayPath } from '../../base/paths.js';
import { exportParquet } from '../../evidence.js';
import { makeCommand } from '../command.js';
import { say, type IO } from '../io.js';
import { folderToWrite, transcriptsOption } from '../options.js';

export function makeExportCommand(io: IO): Command {
  return makeCommand<{ parquet: string; transcripts?: string; force?: boolean }>(io, {
    name: 'export',
    description: 'write every view as Parquet, hive-partitioned by probe',
    options: [
      new Option('--parquet <dir>', 'the folder to write').makeOptionMandatory(),
      transcriptsOption('extra'),
      new Option('--force', 'write into a folder that is not empty, replacing what it holds'),
    ],
    action: async ({ probes, opts, onWarning }) => {
      folderToWrite('--parquet', opts.parquet, 'the views');
      // resolve('') is the working folder, which --force would fill with views.
      const out = resolve(opts.parquet);
      // Export writes files, so it loads into a database that is never given user SQL.
      const written = await exportParquet(probes, out, { transcripts: opts.transcripts, force: opts.force, onWarning });
      say(io, `export: ${written} view(s) written to ${displayPath(out)}`);
    },
  });
}
