/**
 * `agree`'s table (queries/agree.sql): one line or row per spawn compared, and the one-line summary
 * of the counts.
 */
import { dollars, tabulate, type Cell, type Column, type Row, type TableStyle, type TabularFormat } from './formats.js';
import { codePoint, replaceChars, textOf } from './shown.js';
import { anyTranscriptOnly, modelNames } from './usage.js';

export type AgreeFormat = 'text' | TabularFormat;

/** The start of a spawn's text line: its arm in 12 columns, its session's first 8 characters. */
const spawnHead = (r: Row) => `${String(r.arm).padEnd(12)}${String(r.session_id).slice(0, 8)}  `;

/** The columns that name a spawn: probe (when several, or in csv), seq, arm, and session (its id in csv). */
function spawnColumns(rows: Row[], wide: boolean): Column[] {
  const several = new Set(rows.map((r) => r.probe)).size > 1;
  return [
    ...(several || wide ? [{ key: 'probe' }] : []),
    { key: 'seq', right: true },
    { key: 'arm' },
    wide ? { key: 'session_id' } : { key: 'session' },
  ];
}

/** One line per row: `K-RES       1bb76aee  agree`, or the difference with both sides. */
function textLine(r: Row): string {
  const head = spawnHead(r);
  if (r.verdict === 'agree') return `${head}agree`;
  if (r.verdict === 'gone') {
    const unchecked = r.records === null ? '' : `; records ${r.records}, unchecked`;
    return `${head}gone: ${r.item === null ? 'no transcript' : `${r.item} holds no session`}${unchecked}`;
  }
  return `${head}differs: ${r.aspect}${r.item === null ? '' : ` ${r.item}`}: records ${r.records}, transcripts ${r.transcripts}`;
}

/**
 * A name as a reader can tell it from another: quoted, its combining marks as code points, when it has
 * spaces at either end or is not in NFC (`"Bash "`, `"E⟨U+0301⟩crire"`), which a page or a terminal shows
 * as the name without them. Two sides that differ so had read as one name on both.
 */
function told(v: unknown): unknown {
  if (typeof v !== 'string' || (v === v.trim() && v === v.normalize('NFC'))) return v;
  return `"${replaceChars(v, /\p{M}/gu, (c) => `⟨${codePoint(c)}⟩`)}"`;
}

export function formatAgree(all: Row[], format: AgreeFormat, style: TableStyle = {}): string {
  // csv and json carry each value exactly; the formats people read get the names they can tell apart.
  const rows = ['csv', 'json', 'ndjson'].includes(format)
    ? all
    : all.map((r) => ({ ...r, item: told(r.item), records: told(r.records), transcripts: told(r.transcripts) }));
  if (format === 'text') return textOf(rows, (rs) => rs.map((r) => `${textLine(r)}\n`).join(''));
  const columns: Column[] = [
    ...spawnColumns(rows, format === 'csv'),
    { key: 'verdict' },
    { key: 'aspect' },
    { key: 'item' },
    { key: 'records' },
    { key: 'transcripts' },
  ];
  return tabulate(format, columns, rows, {
    cells: (r) => ({ ...(r as Record<string, Cell>), session: String(r.session_id).slice(0, 8) }),
    style,
  });
}

/** Counts for the summary: spawns compared (they agree or differ), and those gone, per probe. */
export function agreementCounts(
  rows: Row[],
  probes: string[] = [],
): { spawns: number; agree: number; differ: number; gone: Row[]; uncompared: string[] } {
  const spawns = new Map<string, Row>();
  const differ = new Set<string>();
  for (const r of rows) {
    const key = `${r.probe}/${r.session_id}`;
    spawns.set(key, r);
    if (r.verdict === 'differ') differ.add(key);
  }
  const compared = new Set([...spawns].filter(([, r]) => r.verdict !== 'gone').map(([, r]) => String(r.probe)));
  const all = [...new Set([...probes, ...[...spawns.values()].map((r) => String(r.probe))])];
  return {
    spawns: spawns.size,
    agree: rows.filter((r) => r.verdict === 'agree').length,
    differ: differ.size,
    gone: rows.filter((r) => r.verdict === 'gone'),
    uncompared: all.filter((p) => !compared.has(p)),
  };
}

/** How many gone spawns the summary names before "and N more". */
const NAMED = 5;

/**
 * The one-line summary: `agree: 27 of 28 spawn(s) compared: 27 agree, 0 differ; 1 gone (no transcript: K-NEG d3cf0e26)`;
 * with `several` probes loaded, a gone spawn after its probe (`A K-NEG d3cf0e26`).
 */
export function summaryLine(s: ReturnType<typeof agreementCounts>, several = false): string {
  const named = s.gone.slice(0, NAMED).map((r) => `${several ? `${r.probe} ` : ''}${r.arm} ${String(r.session_id).slice(0, 8)}`);
  if (s.gone.length > NAMED) named.push(`and ${s.gone.length - NAMED} more`);
  const gone = s.gone.length ? ` (no transcript: ${named.join(', ')})` : '';
  return `agree: ${s.agree + s.differ} of ${s.spawns} spawn(s) compared: ${s.agree} agree, ${s.differ} differ; ${s.gone.length} gone${gone}`;
}

/**
 * `agree --usage`: each spawn's transcript-derived cost beside its envelope's, over the models both
 * show (queries/usage_spawns.sql), as `K-RES       1bb76aee  agree: $0.087137 / $0.087137 = 1`.
 */
export function formatUsageAgree(rows: Row[], format: AgreeFormat, style: TableStyle = {}): string {
  if (format === 'text') {
    return textOf(rows, (rs) =>
      rs
        .map((r) => {
          const head = `${spawnHead(r)}${r.verdict}`;
          if (r.verdict === 'gone' || r.verdict === 'no envelope') return `${head}\n`;
          const only = r.verdict === 'differ' ? ((r.envelope_only_models as string[] | null) ?? []) : [];
          const all = `transcripts ${money(r.cost_usd)}, envelope in all ${money(r.envelope_cost_usd)}`;
          if (r.verdict === 'no model usage') return `${head}: ${all}\n`;
          // No model of the envelope to compare with (no modelUsage): it differs from the envelope's total, by
          // what the priced responses cost when a model has none (the figure it was held to).
          if (r.verdict === 'differ' && noModelUsage(r)) {
            if (r.cost_usd !== null) return `${head}: ${all}, ratio ${r.ratio ?? '-'}\n`;
            return `${head}: transcripts -, priced responses ${money(r.priced_cost_usd)}, envelope in all ${money(r.envelope_cost_usd)}, ratio ${r.priced_ratio ?? '-'}\n`;
          }
          // A difference says which of the envelope's models the transcript does not show: one may be why.
          const extra = r.verdict === 'differ' ? modelNames(r.transcript_only_models) : [];
          const unlike = r.verdict === 'differ' ? ((r.differing_models as string[] | null) ?? []) : [];
          const unseen = `${only.length ? `; envelope only: ${only.join(' ')}` : ''}${extra.length ? `; transcript only: ${extra.join(' ')}` : ''}${unlike.length ? `; models that differ: ${unlike.join(' ')}` : ''}`;
          return `${head}: transcripts ${money(r.cost_usd)}, envelope ${money(r.envelope_models_cost_usd)}, ratio ${r.models_ratio ?? '-'}${unseen}\n`;
        })
        .join(''),
    );
  }
  const columns: Column[] = [
    ...spawnColumns(rows, format === 'csv'),
    { key: 'verdict' },
    { key: 'cost_usd', title: 'transcripts', right: true, money: true },
    { key: 'envelope_models_cost_usd', title: 'envelope', right: true, money: true },
    { key: 'models_ratio', title: 'ratio', right: true },
    { key: 'envelope_only_models', title: 'envelope only' },
    // A response of a model modelUsage does not list makes a spawn differ: the column says which, when one does.
    ...(['csv', 'json', 'ndjson'].includes(format) || anyTranscriptOnly(rows)
      ? [{ key: 'transcript_only_models', title: 'transcript only' }]
      : []),
    // Each model both show is compared on its own: the column says which differ, when one does.
    ...(['csv', 'json', 'ndjson'].includes(format) || rows.some((r) => ((r.differing_models as string[] | null) ?? []).length > 0)
      ? [{ key: 'differing_models', title: 'models that differ' }]
      : []),
  ];
  return tabulate(format, columns, rows, {
    cells: (r) => ({
      ...(r as Record<string, Cell>),
      session: String(r.session_id).slice(0, 8),
      envelope_only_models: (r.envelope_only_models as string[] | null) ?? [],
      differing_models: (r.differing_models as string[] | null) ?? [],
      transcript_only_models: format === 'csv' ? JSON.stringify(r.transcript_only_models ?? []) : modelNames(r.transcript_only_models),
      // With no modelUsage, the envelope is its total, and the transcripts its priced responses (as the text says).
      ...(noModelUsage(r) && r.envelope_cost_usd !== null
        ? {
            cost_usd: (r.verdict === 'differ' ? (r.cost_usd ?? r.priced_cost_usd) : r.cost_usd) as Cell,
            envelope_models_cost_usd: r.envelope_cost_usd as Cell,
            models_ratio: (r.verdict === 'differ' && r.cost_usd === null ? r.priced_ratio : r.ratio) as Cell,
          }
        : {}),
    }),
    style,
  });
}

/** A row whose envelope gives no modelUsage: no model of it is shown, and none is missing. */
const noModelUsage = (r: Row) =>
  r.verdict !== 'gone' && r.envelope_models_cost_usd === null && !((r.envelope_only_models as string[] | null) ?? []).length;

const money = (v: unknown) => (v === null || v === undefined ? '-' : dollars(typeof v === 'string' ? v : Number(v), 6));

/**
 * The summary of agree --usage: how many spawns were compared, and how many agree within `tolerance`;
 * the probes (of `probes` and the rows) none of whose spawns was compared, and why not (their verdicts).
 */
export function usageSummary(
  rows: Row[],
  tolerance: number,
  probes: string[] = [],
): { line: string; differ: number; uncompared: string[]; why: Set<string> } {
  const count = (v: string) => rows.filter((r) => r.verdict === v).length;
  const isCompared = (r: Row) => r.verdict === 'agree' || r.verdict === 'differ';
  const others = ['gone', 'no envelope', 'no model usage', 'unpriced'].filter((v) => count(v)).map((v) => `${count(v)} ${v}`);
  const line =
    `agree --usage: ${rows.filter(isCompared).length} of ${rows.length} spawn(s) compared within ${tolerance * 100}%: ${count('agree')} agree, ${count('differ')} differ` +
    (others.length ? `; ${others.join(', ')}` : '');
  const compared = new Set(rows.filter(isCompared).map((r) => String(r.probe)));
  const uncompared = [...new Set([...probes, ...rows.map((r) => String(r.probe))])].filter((p) => !compared.has(p));
  // A probe whose spawns are all gone lacks its transcripts; else gone ones are not why nothing was compared.
  const why = new Set<string>();
  for (const p of uncompared) {
    const verdicts = rows.filter((r) => String(r.probe) === p).map((r) => String(r.verdict));
    for (const v of verdicts.some((v) => v !== 'gone') ? verdicts.filter((v) => v !== 'gone') : verdicts) why.add(v);
  }
  return { line, differ: count('differ'), uncompared, why };
}
