/**
 * `omg-evidence skills [PROBE...]`: one row per Skill call, paired with the result that answered it
 * (queries/skills.sql), from skill_results.jsonl or from the transcripts.
 */
import { Command } from 'commander';
import type { Row } from '../../evidence.js';
import { Evidence, withEvidence, type Source } from '../../evidence.js';
import { render, TABULAR_FORMATS, type Cell, type Column, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import {
  chosenFormat,
  dbOption,
  formatOption,
  fromOption,
  resolveSource,
  transcriptsOnly,
  transcriptsOption,
  warnNoTranscripts,
  warnUnmatched,
  tableStyle,
  wideOption,
} from '../options.js';

type Format = (typeof TABULAR_FORMATS)[number];

/** The JSON form of a skills row; sessions with no probe (`--transcripts DIR` alone) have no probe or arm. */
export function skillJson(r: Row, transcriptsOnly = false) {
  return {
    ...(transcriptsOnly ? {} : { probe: r.probe, arm: r.arm }),
    session_id: r.session_id,
    tool_use_id: r.tool_use_id,
    skill: r.skill,
    is_error: r.is_error,
    result: r.result,
    definition: r.definition,
  };
}

export function formatSkills(rows: Row[], format: Format, style: TableStyle = {}, transcriptsOnly = false): string {
  const wide = format === 'csv';
  const probes = new Set(rows.map((r) => r.probe));
  const columns: Column[] = [
    ...((probes.size > 1 || wide) && !transcriptsOnly ? [{ key: 'probe' }] : []),
    ...(transcriptsOnly ? [] : [{ key: 'arm' }]),
    wide ? { key: 'session_id' } : { key: 'session' },
    { key: 'tool_use_id' },
    { key: 'skill' },
    { key: 'is_error' },
    { key: 'result' },
    { key: 'definition' },
  ];
  return render(format, columns, rows, {
    cells: (r) => ({ ...(skillJson(r) as Record<string, Cell>), session: String(r.session_id).slice(0, 8) }),
    json: (r) => skillJson(r, transcriptsOnly),
    style,
  });
}

export function makeSkillsCommand(io: IO): Command {
  return new Command('skills')
    .description('every Skill call paired with its result, from skill_results.jsonl or from the transcripts')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(TABULAR_FORMATS))
    .addOption(wideOption())
    .addOption(fromOption())
    .addOption(transcriptsOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; from?: Source; transcripts?: string; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      const onWarning = (w: string) => warn(io, w);
      const standalone = transcriptsOnly(probes, opts);
      const source = resolveSource(opts.from, opts.transcripts);
      const opening = standalone
        ? Evidence.openTranscripts(opts.transcripts!, { onWarning, db: opts.db, queries: ['skills'], onProgress: progressReporter(io) })
        : Evidence.open(probes, {
            onWarning,
            transcripts: source.open,
            db: opts.db,
            queries: ['skills'],
            onProgress: progressReporter(io),
          });
      await withEvidence(opening, async (ev) => {
        if (!standalone && source.from === 'transcripts') await warnUnmatched(ev, opts.transcripts, onWarning);
        const rows = await ev.skillRows(source.from);
        if (standalone) warnNoTranscripts(rows.length, opts.transcripts!, onWarning);
        io.stdout(formatSkills(rows, format, tableStyle(io, opts.wide), standalone));
      });
    });
}
