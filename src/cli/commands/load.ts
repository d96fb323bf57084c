/**
 * `omg-evidence load [PROBE...] --db FILE`: load the evidence once into a DuckDB file, so that
 * commands given `--db FILE` skip the load. The file records its inputs and their fingerprint;
 * `--db` refuses it when they differ from the ones named or changed since.
 */
import { Command, Option } from 'commander';
import { Evidence, type Source } from '../../evidence.js';
import { warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import { displayPath } from '../../base/paths.js';
import { resolveSource, transcriptsOnly, transcriptsOption } from '../options.js';

export function makeLoadCommand(io: IO): Command {
  return new Command('load')
    .description(
      'load probes (and transcripts) into a DuckDB file that --db FILE reads; with --transcripts DIR, no probe and no --from, transcripts only',
    )
    .argument('[probe...]', 'probe directories')
    .requiredOption('--db <file>', 'the database file to write')
    .addOption(
      new Option('--from <source>', "transcripts: also load each probe's transcripts/").choices(['records', 'transcripts'] as const),
    )
    .addOption(transcriptsOption())
    .option('--force', 'rebuild even when the file is current')
    .action(async (probes: string[], opts: { db: string; from?: Source; transcripts?: string; force?: boolean }) => {
      // The same inputs as the other commands name with these options, so that their --db finds them.
      const transcripts = resolveSource(opts.from, opts.transcripts).open;
      const only = transcriptsOnly(probes, opts);
      // Each probe's own transcripts/ too when present, as census and verdict read it (forgeable markers).
      const built = await Evidence.build(
        probes,
        {
          db: undefined,
          file: opts.db,
          force: opts.force,
          transcripts,
          ownTranscripts: true,
          onWarning: (w) => warn(io, w),
          onProgress: progressReporter(io),
        },
        !only,
      );
      io.stderr(`omg-evidence: load: ${displayPath(opts.db)} ${built ? 'written' : 'is up to date'}\n`);
    });
}
