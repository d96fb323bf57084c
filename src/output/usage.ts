/**
 * What Claude Code sessions used and cost (queries/usage.sql), one row per day, week, month,
 * session, project or model, with a row per model under each (--breakdown) and a totals row; and
 * per spawn of a probe, beside its envelope (queries/usage_spawns.sql).
 */
import { type Cell, type Column, type Row, type TableStyle, type TabularFormat, tabulate } from './formats.js';

/**
 * How far a spawn's transcript-derived cost may stray from its envelope's, over the models both
 * show, and still agree (agree --usage): 1%, as |models_ratio - 1|.
 */
export const USAGE_TOLERANCE = 0.01;

export const USAGE_REPORTS = ['daily', 'weekly', 'monthly', 'session', 'project', 'model'] as const;
export type UsageReport = (typeof USAGE_REPORTS)[number];

/** What the first column holds, per report. */
const KEY_TITLE: Record<UsageReport, string> = {
  daily: 'date',
  weekly: 'week',
  monthly: 'month',
  session: 'session',
  project: 'project',
  model: 'model',
};

const TOKENS: Column[] = [
  { key: 'input_tokens', title: 'input', right: true },
  { key: 'output_tokens', title: 'output', right: true },
  { key: 'cache_creation_input_tokens', title: 'cache_write', right: true },
  { key: 'cache_read_input_tokens', title: 'cache_read', right: true },
];

/** The usage rows in `format`: breakdown rows under their row, the totals row last. */
export function formatUsage(
  rows: Row[],
  report: UsageReport,
  format: TabularFormat,
  options: { breakdown?: boolean; style?: TableStyle } = {},
): string {
  const wide = format === 'csv' || format === 'json' || format === 'ndjson';
  const columns: Column[] = [
    { key: 'key', title: wide ? 'key' : KEY_TITLE[report] },
    ...(options.breakdown && report !== 'model' ? [{ key: 'model' }] : []),
    ...(wide ? [{ key: 'is_total' }, ...(options.breakdown && report !== 'model' ? [{ key: 'is_breakdown' }] : [])] : []),
    ...(report === 'session'
      ? [
          { key: 'first_at', title: 'first' },
          { key: 'last_at', title: 'last' },
        ]
      : [{ key: 'sessions', right: true }]),
    { key: 'responses', right: true },
    ...TOKENS,
    { key: 'total_tokens', title: 'total', right: true },
    { key: 'cost_usd', right: true, money: true },
    ...(wide || rows.some((r) => Number(r.unpriced) > 0) ? [{ key: 'unpriced', right: true }] : []),
  ];
  const cells = (r: Row): Record<string, Cell> => {
    const c: Record<string, Cell> = Object.fromEntries(columns.map((col) => [col.key, cellOf(r[col.key])]));
    if (wide) return c;
    // A name that reads as one of the labels below (a project folder called Total, a model called
    // "(none)") is shown quoted, so that no row passes for the total or for what names nothing; so is one
    // that starts with a quote, its quotes escaped, or a model `"Total"` would read as the quoted Total;
    // and one that is a label but for what a table's cell does not show (space, `Total⠀` with a blank
    // letter, `To\u200btal`).
    for (const k of ['key', 'model']) {
      const v = c[k];
      if (typeof v === 'string') c[k] = shownName(v);
    }
    // A breakdown row shows its model alone, under the row it breaks down (a response naming none: "(none)").
    if (r.is_breakdown) return { ...c, key: '', model: c.model ?? '(none)' };
    // Responses with no RFC 3339 timestamp fall on no date; with no model, project or session, on none.
    if (r.key === null) c.key = r.is_total ? 'Total' : NO_KEY[report];
    return c;
  };
  return tabulate(format, columns, rows, { cells, json: (r) => r, style: options.style });
}

/** The label of a row whose key is NULL: what its responses do not say. */
const NO_KEY: Record<UsageReport, string> = {
  daily: '(no timestamp)',
  weekly: '(no timestamp)',
  monthly: '(no timestamp)',
  session: '(no session)',
  project: '(no project)',
  model: '(no model)',
};

/**
 * A name as a reader sees it, to compare with the labels: NFKC, with no space or invisible character
 * (Cf), and none of the letters that print blank (U+2800 BRAILLE PATTERN BLANK, the Hangul fillers).
 */
const seen = (s: string) => s.normalize('NFKC').replace(/[\s\p{Cf}\u2800\u115F\u1160\u3164\uFFA0]/gu, '');
/** What the table and markdown write in place of a value: a value spelt so is quoted. */
const LABELS = ['Total', '(none)', ...Object.values(NO_KEY)].map(seen);

/**
 * Whether a name reads as a label: seen() equal to one, or equal but for letters outside ASCII in
 * its place (Cyrillic Т or о, a palochka for l), which a cell shows as the label's own.
 */
function readsAsLabel(name: string): boolean {
  const cs = [...seen(name)];
  return LABELS.some((label) => cs.length === label.length && cs.every((c, i) => c === label[i] || c.codePointAt(0)! > 0x7f));
}

/** Each spawn's transcript-derived usage beside its envelope's. */
export function formatUsageBySpawn(rows: Row[], format: TabularFormat, style: TableStyle = {}): string {
  const wide = format === 'csv' || format === 'json' || format === 'ndjson';
  const columns: Column[] = wide
    ? Object.keys(rows[0] ?? { probe: null }).map((key) => ({ key }))
    : [
        { key: 'probe' },
        { key: 'seq', right: true },
        { key: 'arm' },
        { key: 'responses', right: true },
        ...TOKENS,
        { key: 'cost_usd', title: 'cost_usd (transcript)', right: true, money: true },
        { key: 'envelope_cost_usd', title: 'total_cost_usd (envelope)', right: true, money: true },
        { key: 'ratio', right: true },
        { key: 'envelope_output_tokens', title: 'output (modelUsage)', right: true },
        { key: 'envelope_models_cost_usd', title: 'costUSD (same models)', right: true, money: true },
        { key: 'models_ratio', title: 'ratio (same models)', right: true },
        { key: 'envelope_only_models', title: 'envelope only' },
        ...(anyTranscriptOnly(rows) ? [{ key: 'transcript_only_models', title: 'transcript only' }] : []),
        { key: 'verdict' },
      ];
  const cells = (r: Row): Record<string, Cell> => ({
    ...Object.fromEntries(columns.map((c) => [c.key, cellOf(r[c.key])])),
    ...(wide ? {} : { transcript_only_models: modelNames(r.transcript_only_models) }),
  });
  return tabulate(format, columns, rows, { cells, json: (r) => r, style });
}

/**
 * transcript_only_models as a person reads it: a response naming no model (NULL) as (none), and a model
 * whose name reads as that or another label (readsAsLabel: `(none) `, `(nоne)`), or starts with a quote,
 * as a JSON string (`"(none)"`), so the two stay apart.
 */
export function modelNames(models: unknown): string[] {
  return ((models as (string | null)[] | null) ?? []).map((m) => (m === null ? '(none)' : shownName(m)));
}

/** Whether a row of usage_spawns names a model of the transcript that modelUsage does not list: its column is shown then. */
export const anyTranscriptOnly = (rows: Row[]) => rows.some((r) => ((r.transcript_only_models as unknown[] | null) ?? []).length > 0);

/** A name as a cell shows it: quoted as a JSON string when it reads as a label or starts with a quote. */
const shownName = (name: string) => (readsAsLabel(name) || name.startsWith('"') ? JSON.stringify(name) : name);

/** A query value as a cell: a list as its items joined by spaces in tables, a JSON array in csv. */
function cellOf(v: unknown): Cell {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'object') return JSON.stringify(v);
  return v as Cell;
}

/**
 * The warning for responses that fall on no date (their line has no RFC 3339 timestamp: omg_rfc3339): those a bound
 * left out, in any report, else those of a report by date; null when there are none.
 */
export function undatedWarning(rows: Row[], report: UsageReport): string | null {
  const total = rows.find((r) => r.is_total);
  if (Number(total?.undated_left_out) > 0)
    return `${total!.undated_left_out} response(s) have no RFC 3339 timestamp: --since or --until left them out, as neither can place them`;
  if (!['daily', 'weekly', 'monthly'].includes(report)) return null;
  const undated = rows.find((r) => r.key === null && !r.is_total && !r.is_breakdown);
  if (!undated) return null;
  return `${undated.responses} response(s) have no RFC 3339 timestamp: they are counted under "(no timestamp)", and --since or --until leaves them out`;
}
