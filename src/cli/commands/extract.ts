/**
 * `omg-evidence extract --transcripts DIR --results FILE --out DIR`: write a probe's committed,
 * redacted records (tool_use/<session_id>.jsonl, skill_results.jsonl) from its transcripts, and
 * warn when the transcripts hold the session of none of the rows, or miss some.
 */
import { type Command, Option } from 'commander';
import { displayPath } from '../../base/paths.js';
import { refuseInsideEvidence } from '../../base/replace-file.js';
import { Evidence } from '../../evidence.js';
import { withEvidence } from '../command.js';
import { makeCommand } from '../command.js';
import { say, type IO } from '../io.js';
import { folderToWrite } from '../options.js';

export function makeExtractCommand(io: IO): Command {
  return makeCommand<{ transcripts: string; results: string; out: string; force?: boolean }>(io, {
    name: 'extract',
    description: 'write tool_use/<session_id>.jsonl and skill_results.jsonl from transcripts, refusing any home-directory path',
    arguments: [],
    options: [
      new Option('--transcripts <dir>', "folder of the session transcripts, or one session's .jsonl").makeOptionMandatory(),
      new Option('--results <file>', "the probe's results.jsonl").makeOptionMandatory(),
      new Option('--out <dir>', 'folder to write tool_use/ and skill_results.jsonl into').makeOptionMandatory(),
      new Option('--force', 'overwrite files that differ'),
    ],
    action: async ({ opts, onWarning }) => {
      // A probe's own records may be written into it; never into the transcripts they come from.
      // Refused here before anything loads; extract() checks every place it writes again, links followed.
      folderToWrite('--out', opts.out, 'the records');
      refuseInsideEvidence(opts.out, [opts.transcripts], 'the records', 'the transcripts folder');
      await withEvidence(Evidence.openForExtract(opts.results, opts.transcripts, { onWarning }), async (ev) => {
        const report = await ev.extract({ out: opts.out, force: opts.force, home: io.env.HOME });
        // A folder that matches no row, or misses some, would otherwise go unnoticed until the
        // written probe fails to load.
        const { spawns, matched, recorded } = report;
        const [dir, results] = [displayPath(opts.transcripts), displayPath(opts.results)];
        if (matched === 0) {
          onWarning(`extract: no transcript in ${dir} holds the session of any of the ${spawns} row(s) of ${results}`);
        } else if (recorded < spawns) {
          onWarning(
            `extract: ${spawns - recorded} of the ${spawns} row(s) of ${results} opened a session no transcript in ${dir} holds: their tool_use record is not written`,
          );
        }
        say(io, `extract: wrote ${report.written.length} file(s), ${report.unchanged.length} unchanged, in ${displayPath(opts.out)}`);
      });
    },
  });
}
