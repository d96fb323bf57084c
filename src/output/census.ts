/**
 * The census as every format prints it: the ADR's text block (census-block.ts) for `text`, a row per
 * spawn for the tabular formats; and the census of sessions when no probe is named. Layout only:
 * every value comes from queries/census.sql and queries/sessions.sql.
 */
import { censusBlock, pythonDict, skillList, toolsObject, toolsText, type CensusRow, type ToolCount } from './census-block.js';
import { tabulate, type Cell, type Column, type Row, type TableStyle, type TabularFormat } from './formats.js';
import { textOf } from './shown.js';

export type CensusFormat = 'text' | TabularFormat;

const toolsOrGone = (tools: ToolCount[] | null) => (tools === null ? null : toolsObject(tools));

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
    tools: toolsOrGone(r.tools),
    artifacts: r.artifacts,
    markers: r.markers,
    skills: r.skills,
    note: r.note,
    forgeable: r.forgeable,
  };
}

/** A census row as the tabular formats show it; `wide` (csv) keeps whole ids and JSON tools. */
export function censusCells(r: CensusRow, wide: boolean): Record<string, Cell> {
  return {
    probe: r.probe,
    seq: r.seq,
    arm: r.arm,
    phase: r.phase,
    session: r.session_id.slice(0, 8),
    session_id: r.session_id,
    status: r.status,
    exit_code: r.exit_code,
    tools: wide ? (r.tools === null ? null : JSON.stringify(toolsOrGone(r.tools))) : toolsText(r.tools),
    artifacts: r.artifacts,
    markers: r.markers,
    skills: wide ? r.skills : skillList(r.skills),
    note: r.note,
    // Unknown when a label's spawn has no transcript to tell: csv leaves it empty, as json has null.
    forgeable: r.forgeable ?? (wide ? null : 'unknown'),
  };
}

/** Render census rows in `format`. Several probes get a probe column (text: a heading per probe). */
export function formatCensus(rows: CensusRow[], format: CensusFormat, style: TableStyle = {}): string {
  const probes = [...new Set(rows.map((r) => r.probe))];
  if (format === 'text') {
    return textOf({ rows, probes }, (t) =>
      t.probes.length <= 1
        ? censusBlock(t.rows)
        : t.probes.map((p) => `${p}\n${censusBlock(t.rows.filter((r) => r.probe === p))}`).join('\n'),
    );
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
  const cells = (r: CensusRow) => censusCells(r, wide);
  return tabulate(format as TabularFormat, columns, rows, { cells, json: censusJson, style });
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
export function formatSessions(rows: Row[], format: CensusFormat, style: TableStyle = {}): string {
  const sessions = rows as unknown as SessionRow[];
  if (format === 'text') {
    return textOf(sessions, (ss) =>
      ss
        .map((s) => `${`${s.session_id.slice(0, 8)}  ${pythonDict(s.tools).padEnd(26)} ${skillList(s.skills).join('  ')}`.trimEnd()}\n`)
        .join(''),
    );
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
    versions: s.versions,
    models: s.models,
    tools: wide ? JSON.stringify(toolsObject(s.tools)) : pythonDict(s.tools),
    skills: wide ? s.skills : skillList(s.skills),
    lines: s.lines,
    files: wide ? s.files : s.files.length,
  });
  return tabulate(format as TabularFormat, columns, sessions, { cells, json: (s) => ({ ...s, tools: toolsObject(s.tools) }), style });
}
