/**
 * `omg-evidence load [PROBE...] --db FILE`: load the evidence once into a DuckDB file, so that
 * commands given `--db FILE` skip the load. The file records its inputs and their fingerprint;
 * `--db` refuses it when they differ from the ones named or changed since.
 */
import { type Command, Option } from 'commander';
import { displayPath } from '../../base/paths.js';
import { Evidence, type Source } from '../../evidence.js';
import { makeCommand } from '../command.js';
import { say, type IO } from '../io.js';
import { fileToWrite, resolveSource, transcriptsOnly, transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';

export function makeLoadCommand(io: IO): Command {
  return makeCommand<{ db: string; from?: Source; transcripts?: string; force?: boolean }>(io, {
    name: 'load',
    description:
      'load probes (and transcripts) into a DuckDB file that --db FILE reads; with --transcripts DIR, no probe and no --from, transcripts only',
    options: [
      new Option('--db <file>', 'the database file to write').makeOptionMandatory(),
      new Option('--from <source>', "transcripts: also load each probe's transcripts/").choices(['records', 'transcripts'] as const),
      transcriptsOption('alone'),
      new Option('--force', 'rebuild even when the file is current, or replace a file omg-evidence did not build'),
    ],
    action: async ({ probes, opts, onWarning }) => {
      fileToWrite('--db', opts.db, 'the database', 'database file');
      // The same inputs as the other commands name with these options, so that their --db finds them.
      const transcripts = resolveSource(opts.from, opts.transcripts).open;
      const only = transcriptsOnly(probes, opts);
      // Each probe's own transcripts/ too when present, as census and verdict read it (forgeable markers).
      const built = await Evidence.build(
        probes,
        { file: opts.db, force: opts.force, transcripts, ownTranscripts: true, onWarning, onProgress: progressReporter(io) },
        !only,
      );
      say(io, `load: ${displayPath(opts.db)} ${built ? 'written' : 'is up to date'}`);
    },
  });
}
