/**
 * The ADR's fixed-width census block (docs/commands.md, `census --format text`), and the
 * display forms of census values the other formats share, and each row's forgeable markers joined
 * to it (withForgeable). Every value comes from queries/census.sql and queries/forgeable.sql.
 */

export interface ToolCount {
  /** NULL for a tool_use block without a name. */
  name: string | null;
  count: number;
}

/**
 * The key a call without a name counts under where tools are a JSON object (json, csv): a lone
 * surrogate, U+D800, which no name can hold (a line holding one is malformed JSON). Under `null`, a
 * nameless call and a tool named "null" were one key, and one count was lost.
 */
export const NAMELESS_KEY = '\ud800';

/** Tool counts as a JSON object, keys in the order given. */
export const toolsObject = (tools: ToolCount[]) => Object.fromEntries(tools.map((t) => [t.name ?? NAMELESS_KEY, t.count]));

/**
 * One census row as queries/census.sql returns it (tools is null when the source has no record),
 * with `forgeable` from queries/forgeable.sql (withForgeable).
 */
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
  /**
   * The shown labels of its markers and artifacts that the spawn's own tool calls could have
   * produced; `[]` when none could; null when the spawn has one and no transcript to tell.
   */
  forgeable: string[] | null;
}

/**
 * Python's repr of a str→int dict with sorted keys: `{'Skill': 1, 'Write': 2}`, `{}` for none. A
 * call without a name counts under `None`.
 */
export function pythonDict(tools: ToolCount[]): string {
  // Python's repr: double quotes when the name has a ' and no ", a backslash doubled inside either quotes.
  const repr = (s: string | null) => {
    if (s === null) return 'None';
    const escaped = s.replaceAll('\\', '\\\\');
    return s.includes("'") && !s.includes('"') ? `"${escaped}"` : `'${escaped.replaceAll("'", "\\'")}'`;
  };
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
  return s.length < width ? s.padEnd(width) : `${s} `;
}

/** One line of the block. */
export function censusLine(r: CensusRow): string {
  const artifacts = r.artifacts.length ? r.artifacts.join(' ') : '-';
  const markers = r.markers.length ? r.markers.join(' ') : '-';
  const rest = [...skillList(r.skills), ...(r.note ? [`(${r.note})`] : [])].join('  ');
  const line = `${cell(r.arm, 12) + r.session_id.slice(0, 8)}  ${cell(toolsText(r.tools), 26)}${cell(artifacts, 8)}${markers.padEnd(17)} ${rest}`;
  return line.trimEnd();
}

/** The block: one line per spawn in the order given (seq order), newline-terminated. */
export function censusBlock(rows: CensusRow[]): string {
  return rows.map((r) => `${censusLine(r)}\n`).join('');
}

/**
 * A registered marker or artifact the spawn's own tool calls could have produced (verdict
 * forgeable), or one where that cannot be established (unknown, for a reason): a row of
 * queries/forgeable.sql.
 */
export interface ForgeableRow {
  probe: string;
  seq: number;
  arm: string;
  session_id: string;
  kind: 'artifact' | 'marker';
  ordinal: number;
  label: string;
  /** As the census shows it: LABEL, or LABEL@DIR for a marker found outside REPO. */
  shown: string;
  /** The artifact's path, or the marker's file, as registered. */
  target: string;
  token: string | null;
  verdict: 'forgeable' | 'unknown';
  /** Why it is unknown: its spawn has no transcript, its transcript lacks a recorded call, it records no path, or a call could not be read. */
  reason: 'no transcript' | 'missing calls' | 'no path' | 'unread call' | null;
  /** The first call that could have produced it (for an unread call, that call; else NULL when unknown). */
  tool: string | null;
  tool_use_id: string | null;
  /** The path it wrote, or the command it ran. */
  input: string | null;
  calls: number | null;
}

/** Longest command a warning quotes: a heredoc can hold a whole file. */
const QUOTED = 160;

/** A command or path on one line, shortened: newlines shown as \n. */
function oneLine(s: string): string {
  const flat = s.replace(/\r?\n/g, '\\n');
  return flat.length > QUOTED ? `${flat.slice(0, QUOTED - 1)}…` : flat;
}

/**
 * One finding as one warning line, e.g.
 * `K-FM a97721a8: artifact BREACH (/tmp/OMG-K-CEILING-BREACH) is forgeable: Write toolu_01… wrote /tmp/OMG-K-CEILING-BREACH`;
 * with `several` probes loaded, after its probe (`A: K-FM a97721a8: …`), as two copies share arms and sessions.
 */
export function forgeryWarning(r: ForgeableRow, several = false): string {
  const what = `${several ? `${r.probe}: ` : ''}${r.arm} ${r.session_id.slice(0, 8)}: ${r.kind} ${r.shown} (${r.target ?? 'no path'}${r.token ? `, token ${r.token}` : ''})`;
  if (r.reason === 'no path')
    return `${what} may be forgeable: it records no path to compare, and the spawn's own calls wrote files or ran commands`;
  const call = `${r.tool === null ? 'a call without a tool name' : r.tool} ${r.tool_use_id || '(no id)'}`;
  if (r.reason === 'missing calls')
    return `${what} may be forgeable: its transcript lacks ${call}, which tool_use/ records, so a file of it is missing or cut short (put the session's files in the transcripts)`;
  if (r.reason === 'unread call') {
    if (r.tool === 'Skill')
      return `${what} may be forgeable: ${call} ran forked, or may have (no result after it shows a skill run inline), as a sub-agent whose calls the transcripts do not all hold (its agent-*.jsonl, or the result that counts them, is missing or cut short)`;
    return r.tool === 'Task' || r.tool === 'Agent'
      ? `${what} may be forgeable: ${call} ran a sub-agent whose calls the transcripts do not all hold (its agent-*.jsonl, or the result that counts them, is missing or cut short)`
      : `${what} may be forgeable: ${call} is a tool whose input this check does not read, which could have made it`;
  }
  if (r.verdict === 'unknown')
    return `${what} may be forgeable: the spawn has no transcript, so whether its own tool calls made it cannot be established`;
  const more = r.calls && r.calls > 1 ? ` (and ${r.calls - 1} more call${r.calls > 2 ? 's' : ''})` : '';
  return `${what} is forgeable: ${r.tool} ${r.tool_use_id} ${r.tool === 'Bash' ? 'ran' : 'wrote'} ${oneLine(r.input ?? '')}${more}`;
}

/**
 * The warnings of a set of findings: one line per forgeable marker or artifact, or one unknown for
 * a reason its transcript gives (naming its probe when `several` are loaded), and one line per
 * probe for those whose spawns have no transcript (a probe that commits none has every one unknown).
 */
export function forgeryWarnings(rows: ForgeableRow[], several = false): string[] {
  const gone = (r: ForgeableRow) => r.verdict === 'unknown' && r.reason === 'no transcript';
  const lines = rows.filter((r) => !gone(r)).map((r) => forgeryWarning(r, several));
  const probes = [...new Set(rows.filter(gone).map((r) => r.probe))];
  for (const p of probes) {
    const unknown = rows.filter((r) => r.probe === p && gone(r));
    const spawns = [...new Set(unknown.map((r) => `${r.arm} ${r.session_id.slice(0, 8)}`))];
    lines.push(
      `${p}: ${unknown.length} registered marker(s) or artifact(s) of ${spawns.length} spawn(s) may be forgeable: ` +
        `no transcript shows what made them (${spawns.join(', ')}); put the session files in the probe's transcripts/ to check`,
    );
  }
  return lines;
}

/** Census rows (without `forgeable`) given their `forgeable` from the findings of queries/forgeable.sql. */
export function withForgeable(rows: Omit<CensusRow, 'forgeable'>[], findings: ForgeableRow[]): CensusRow[] {
  const bySpawn = new Map<string, ForgeableRow[]>();
  for (const f of findings) {
    const key = `${f.probe}\0${f.session_id}`;
    const mine = bySpawn.get(key);
    if (mine) mine.push(f);
    else bySpawn.set(key, [f]);
  }
  return rows.map((r) => {
    const mine = bySpawn.get(`${r.probe}\0${r.session_id}`) ?? [];
    return { ...r, forgeable: mine.some((f) => f.verdict === 'unknown') ? null : mine.map((f) => f.shown) };
  });
}
