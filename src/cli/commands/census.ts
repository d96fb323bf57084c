/**
 * `omg-evidence census [PROBE...]`: the per-spawn tool_use census (queries/census.sql), from the
 * committed records or from the transcripts, in the ADR's fixed-width text block or any tabular
 * format. With `--transcripts DIR` and no probe, the census of every session in DIR
 * (queries/sessions.sql).
 */
import { Command } from 'commander';
import { censusBlock, pythonDict, skillList, toolsText, type CensusRow, type ToolCount } from '../../output/census-block.js';
import { Evidence, withEvidence, type Source } from '../../evidence.js';
import { render, TABULAR_FORMATS, type Cell, type Column, type TabularFormat, type TableStyle } from '../../output/formats.js';
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
import type { Row } from '../../evidence.js';

const FORMATS = ['text', ...TABULAR_FORMATS] as const;
type Format = (typeof FORMATS)[number];

const toolsObject = (tools: ToolCount[] | null) => (tools === null ? null : Object.fromEntries(tools.map((t) => [t.name, t.count])));

/**
 * The JSON form of a census row: `tools` as an object with sorted keys (null when gone). Its keys
 * are csv's columns, in csv's order.
 */
export function censusJson(r: CensusRow) {
  return {
    probe: r.probe,
    seq: r.seq,
    arm: r.arm,
    phase: r.phase,
    session_id: r.session_id,
    status: r.status,
    exit_code: r.exit_code,
    tools: toolsObject(r.tools),
    artifacts: r.artifacts,
    markers: r.markers,
    skills: r.skills,
    note: r.note,
    forgeable: r.forgeable,
  };
}

/** The forgeable column: the labels, or `unknown` when a label's spawn has no transcript to tell. */
const forgeableText = (f: string[] | null) => (f === null ? 'unknown' : f.join(' '));

/** Render census rows in `format`. Several probes get a probe column (text: a heading per probe). */
export function formatCensus(rows: CensusRow[], format: Format, style: TableStyle = {}): string {
  const probes = [...new Set(rows.map((r) => r.probe))];
  if (format === 'text') {
    if (probes.length <= 1) return censusBlock(rows);
    return probes.map((p) => `${p}\n${censusBlock(rows.filter((r) => r.probe === p))}`).join('\n');
  }
  const wide = format === 'csv';
  const columns: Column[] = [
    ...(probes.length > 1 || wide ? [{ key: 'probe' }] : []),
    { key: 'seq', right: true },
    { key: 'arm' },
    { key: 'phase' },
    wide ? { key: 'session_id' } : { key: 'session' },
    { key: 'status' },
    { key: 'exit_code', title: wide ? 'exit_code' : 'exit', right: true },
    { key: 'tools' },
    { key: 'artifacts' },
    { key: 'markers' },
    { key: 'skills' },
    { key: 'note' },
    { key: 'forgeable' },
  ];
  const cells = (r: CensusRow): Record<string, Cell> => ({
    probe: r.probe,
    seq: r.seq,
    arm: r.arm,
    phase: r.phase,
    session: r.session_id.slice(0, 8),
    session_id: r.session_id,
    status: r.status,
    exit_code: r.exit_code,
    tools: wide ? (r.tools === null ? null : JSON.stringify(toolsObject(r.tools))) : toolsText(r.tools),
    artifacts: r.artifacts.join(' '),
    markers: r.markers.join(' '),
    skills: (wide ? r.skills : skillList(r.skills)).join(' '),
    note: r.note,
    forgeable: wide && r.forgeable === null ? null : forgeableText(r.forgeable),
  });
  return render(format as TabularFormat, columns, rows, { cells, json: censusJson, style });
}

interface SessionRow {
  session_id: string;
  first_timestamp: string | null;
  versions: string[];
  models: string[];
  tools: ToolCount[];
  skills: string[];
  lines: number;
  files: string[];
}

/** Render the census of sessions (no probe). */
export function formatSessions(rows: Row[], format: Format, style: TableStyle = {}): string {
  const sessions = rows as unknown as SessionRow[];
  if (format === 'text') {
    return sessions
      .map((s) => `${`${s.session_id.slice(0, 8)}  ${pythonDict(s.tools).padEnd(26)} ${skillList(s.skills).join('  ')}`.trimEnd()}\n`)
      .join('');
  }
  const wide = format === 'csv';
  const columns: Column[] = [
    { key: 'session_id' },
    { key: 'first_timestamp' },
    { key: 'versions' },
    { key: 'models' },
    { key: 'tools' },
    { key: 'skills' },
    { key: 'lines', right: true },
    { key: 'files', right: !wide },
  ];
  const cells = (s: SessionRow): Record<string, Cell> => ({
    session_id: s.session_id,
    first_timestamp: s.first_timestamp,
    versions: s.versions.join(' '),
    models: s.models.join(' '),
    tools: wide ? JSON.stringify(toolsObject(s.tools)) : pythonDict(s.tools),
    skills: (wide ? s.skills : skillList(s.skills)).join(' '),
    lines: s.lines,
    files: wide ? s.files.join(' ') : s.files.length,
  });
  return render(format as TabularFormat, columns, sessions, { cells, json: (s) => ({ ...s, tools: toolsObject(s.tools) }), style });
}

export function makeCensusCommand(io: IO): Command {
  return new Command('census')
    .description('per-spawn tool_use census of one or more probes (default: the bundled probe), or of every session in --transcripts DIR')
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(FORMATS, '; text is the ADR block'))
    .addOption(wideOption())
    .addOption(fromOption())
    .addOption(transcriptsOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; from?: Source; transcripts?: string; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      const onWarning = (w: string) => warn(io, w);
      if (transcriptsOnly(probes, opts)) {
        await withEvidence(
          Evidence.openTranscripts(opts.transcripts!, { onWarning, db: opts.db, queries: ['sessions'], onProgress: progressReporter(io) }),
          async (ev) => {
            const sessions = await ev.sessionRows();
            warnNoTranscripts(sessions.length, opts.transcripts!, onWarning);
            io.stdout(formatSessions(sessions, format, tableStyle(io, opts.wide)));
          },
        );
        return;
      }
      const source = resolveSource(opts.from, opts.transcripts);
      // From the records, each probe's own transcripts/ is read too when present: the forgeable
      // column needs the tool calls' inputs, which the records do not keep.
      // The text block (the ADR's) shows no forgeable column, so it reads no transcript it does not count.
      const forgeable = format !== 'text';
      const open = {
        onWarning,
        transcripts: source.open,
        ownTranscripts: forgeable,
        db: opts.db,
        queries: ['census', 'forgeable'],
        onProgress: progressReporter(io),
      };
      await withEvidence(Evidence.open(probes, open), async (ev) => {
        if (source.from === 'transcripts') await warnUnmatched(ev, opts.transcripts, onWarning);
        io.stdout(formatCensus(await ev.censusRows(source.from, { forgeable }), format, tableStyle(io, opts.wide)));
      });
    });
}
