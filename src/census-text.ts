/**
 * The ADR's fixed-width census block (shared/evidence-format.md, "The census text block"), and the
 * display forms of census values the other formats share. Layout only: every value comes from
 * queries/census.sql.
 */

export interface ToolCount {
  /** NULL for a tool_use block without a name. */
  name: string | null;
  count: number;
}

/** One census row as queries/census.sql returns it (tools is null when the source has no record). */
export interface CensusRow {
  probe: string;
  seq: number;
  arm: string;
  phase: string;
  session_id: string;
  exit_code: number;
  status: 'counted' | 'pilot' | 'void';
  tools: ToolCount[] | null;
  artifacts: string[];
  markers: string[];
  skills: string[];
  note: string | null;
}

/**
 * Python's repr of a str→int dict with sorted keys: `{'Skill': 1, 'Write': 2}`, `{}` for none. A
 * call without a name counts under `None`.
 */
export function pythonDict(tools: ToolCount[]): string {
  const repr = (s: string | null) =>
    s === null ? 'None' : s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return `{${tools.map((t) => `${repr(t.name)}: ${t.count}`).join(', ')}}`;
}

/** Skills in call order; from the second on, a namespaced name is shortened to `namespace:…`. */
export function skillList(skills: string[]): string[] {
  return skills.map((s, i) => (i > 0 && s.includes(':') ? `${s.slice(0, s.indexOf(':'))}:…` : s));
}

/** The tools column: the dict, or `gone` when the source holds nothing for this spawn. */
export function toolsText(tools: ToolCount[] | null): string {
  return tools === null ? 'gone' : pythonDict(tools);
}

/** Left-align in `width` columns, keeping at least one space after a value that fills them. */
function cell(s: string, width: number): string {
  return s.length < width ? s.padEnd(width) : s + ' ';
}

/** One line of the block. */
export function censusLine(r: CensusRow): string {
  const artifacts = r.artifacts.length ? r.artifacts.join(' ') : '-';
  const markers = r.markers.length ? r.markers.join(' ') : '-';
  const rest = [...skillList(r.skills), ...(r.note ? [`(${r.note})`] : [])].join('  ');
  const line =
    cell(r.arm, 12) +
    r.session_id.slice(0, 8) +
    '  ' +
    cell(toolsText(r.tools), 26) +
    cell(artifacts, 8) +
    markers.padEnd(17) +
    ' ' +
    rest;
  return line.trimEnd();
}

/** The block: one line per spawn in the order given (seq order), newline-terminated. */
export function censusBlock(rows: CensusRow[]): string {
  return rows.map((r) => censusLine(r) + '\n').join('');
}
