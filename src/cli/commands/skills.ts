/**
 * `omg-evidence skills [PROBE...]`: one row per Skill call, paired with the result that answered it
 * (queries/skills.sql), from skill_results.jsonl or from the transcripts. With `--transcripts DIR`
 * and no probe, the Skill calls of every session in DIR.
 */
import type { Command } from 'commander';
import { Evidence, type Source } from '../../evidence.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { formatSkills } from '../../output/skills.js';
import { makeEvidenceCommand } from '../command.js';
import type { IO } from '../io.js';
import { dbOption, fromOption, resolveSource, transcriptsOnly, transcriptsOption, warnNoTranscripts, warnUnmatched } from '../options.js';
import { progressReporter } from '../progress.js';

type Options = { format?: TabularFormat; wide?: boolean; from?: Source; transcripts?: string; db?: string };

export function makeSkillsCommand(io: IO): Command {
  return makeEvidenceCommand<Options, Awaited<ReturnType<Evidence['skillRows']>>>(io, {
    name: 'skills',
    description: 'every Skill call paired with its result, from skill_results.jsonl or from the transcripts',
    formats: TABULAR_FORMATS,
    options: [fromOption(), transcriptsOption('alone'), dbOption()],
    open: ({ probes, opts, onWarning }) => {
      const source = resolveSource(opts.from, opts.transcripts);
      return transcriptsOnly(probes, opts)
        ? Evidence.openTranscripts(opts.transcripts!, { onWarning, db: opts.db, queries: ['skills'], onProgress: progressReporter(io) })
        : Evidence.open(probes, {
            onWarning,
            transcripts: source.open,
            db: opts.db,
            queries: ['skills'],
            onProgress: progressReporter(io),
          });
    },
    rows: async (ev, { probes, opts, onWarning }) => {
      const standalone = transcriptsOnly(probes, opts);
      const source = resolveSource(opts.from, opts.transcripts);
      if (!standalone && source.from === 'transcripts') await warnUnmatched(ev, opts.transcripts, onWarning);
      const rows = await ev.skillRows(source.from);
      if (standalone) warnNoTranscripts(rows.length, opts.transcripts!, onWarning);
      return rows;
    },
    print: (rows, format, style, { probes, opts }) => formatSkills(rows, format as TabularFormat, style, transcriptsOnly(probes, opts)),
  });
}
