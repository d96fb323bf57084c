/** The Skill calls paired with their results (queries/skills.sql), in the tabular formats. */
import { tabulate, type Cell, type Column, type Row, type TableStyle, type TabularFormat } from './formats.js';

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

export function formatSkills(rows: Row[], format: TabularFormat, style: TableStyle = {}, transcriptsOnly = false): string {
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
  return tabulate(format, columns, rows, {
    cells: (r) => ({ ...(skillJson(r) as Record<string, Cell>), session: String(r.session_id).slice(0, 8) }),
    json: (r) => skillJson(r, transcriptsOnly),
    style,
  });
}
