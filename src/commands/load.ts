/**
 * `omg-evidence load [PROBE...] --db FILE`: load the evidence once into a DuckDB file, so that
 * commands given `--db FILE` skip the load. The file records its inputs and their fingerprint;
 * `--db` refuses it when they differ from the ones named or changed since.
 */
import { Command } from 'commander';
import { Evidence } from '../evidence.js';
import { warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import { displayPath } from '../paths.js';
import { transcriptsOption } from '../options.js';

export function makeLoadCommand(io: IO): Command {
  return new Command('load')
    .description('load probes (and transcripts) into a DuckDB file that --db FILE reads; with --transcripts DIR and no probe, transcripts only')
    .argument('[probe...]', 'probe directories')
    .requiredOption('--db <file>', 'the database file to write')
    .option('--from <source>', 'transcripts: also load each probe\'s transcripts/')
    .addOption(transcriptsOption())
    .option('--force', 'rebuild even when the file is current')
    .action(async (probes: string[], opts: { db: string; from?: string; transcripts?: string; force?: boolean }) => {
      const transcripts = opts.transcripts ?? (opts.from === 'transcripts' ? true : undefined);
      const transcriptsOnly = probes.length === 0 && opts.transcripts !== undefined;
      const built = await Evidence.build(probes, { db: undefined, file: opts.db, force: opts.force, transcripts, onWarning: (w) => warn(io, w), onProgress: progressReporter(io) }, !transcriptsOnly);
      io.stderr(`omg-evidence: load: ${displayPath(opts.db)} ${built ? 'written' : 'is up to date'}\n`);
    });
}
