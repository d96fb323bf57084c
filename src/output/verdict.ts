/**
 * A probe's verdict (analysis/verdict.ts computes it) as a report: the conjuncts, completeness,
 * budget, uniformity and pre-registration order; or as JSON.
 */
import type { Budget, Conjunct } from '../base/shapes.js';
import { toJson, type Row, type TableStyle } from './formats.js';
import { budgetFigures, formatReport, usd, type Part } from './report.js';

export type VerdictFormat = 'table' | 'markdown' | 'json';

/** A verdict as analysis/verdict.ts gives it: what this module reads of it. */
export interface Verdict {
  probe: string;
  conjuncts: Conjunct[];
  complete: boolean;
  completeness: Row[];
  budget: Budget;
  uniformity: Row[];
  preregistered: string;
  preregistration: {
    reason: string;
    compared: { file: string; commit: string | null; committed_at: string | null; governs: string | null; order: string }[];
  };
  holds: boolean;
  reasons: string[];
}

const yesNo = (b: unknown) => (b === true ? 'yes' : b === false ? 'no' : '');

/** "claude_version 2.1.228 in 28 of 28 spawns; …", with every other value named as an outlier. */
export function uniformityText(rows: Row[]): string {
  if (rows.length === 0) return 'no spawn to compare';
  const aspects = [...new Set(rows.map((r) => String(r.aspect)))];
  return aspects
    .map((aspect) => {
      const mine = rows.filter((r) => r.aspect === aspect);
      const total = mine.reduce((n, r) => n + Number(r.spawns), 0);
      const name = aspect === 'main_model' ? 'main model' : aspect;
      const major = mine.find((r) => r.majority === true);
      const parts = [major ? `${name} ${major.value} in ${major.spawns} of ${total} spawns` : `${name}: none`];
      for (const r of mine.filter((r) => r.majority === false)) {
        parts.push(`OUTLIER ${r.value} in ${(r.sessions as string[]).join(', ')}`);
      }
      const missing = mine.find((r) => r.value === null);
      if (missing) parts.push(`no envelope: ${(missing.sessions as string[]).join(', ')}`);
      return parts.join(', ');
    })
    .join('; ');
}

export function verdictParts(v: Verdict): Part[] {
  const b = v.budget;
  const outliers = v.uniformity.filter((r) => r.majority === false).length;
  return [
    { kind: 'heading', text: `Verdict of ${v.probe}: ${v.holds ? 'HOLDS' : 'DOES NOT HOLD'}` },
    {
      kind: 'table',
      columns: [{ key: 'n', title: '#', right: true }, { key: 'required' }, { key: 'result' }, { key: 'holds' }],
      rows: v.conjuncts.map((c) => ({ n: c.n, required: c.required, result: c.result, holds: yesNo(c.holds) })),
    },
    { kind: 'line', text: `${v.conjuncts.filter((c) => c.holds).length} of ${v.conjuncts.length} conjuncts hold` },
    ...(v.reasons.length ? [{ kind: 'line' as const, label: 'Why not', text: v.reasons.join('; ') }] : []),
    {
      kind: 'line',
      label: 'Completeness',
      text: v.complete ? 'complete: every arm that should have run has its registered n of counted spawns' : 'INCOMPLETE',
    },
    {
      kind: 'table',
      columns: [
        { key: 'arm' },
        { key: 'phase' },
        { key: 'registered_n', title: 'registered', right: true },
        { key: 'counted', right: true },
        { key: 'pilots', right: true },
        { key: 'void_spawns', title: 'void', right: true },
        { key: 'complete' },
        { key: 'note' },
      ],
      rows: v.completeness.map((a) => ({
        arm: a.arm as string,
        phase: a.phase as string,
        registered_n: a.registered_n as number,
        counted: a.counted as number,
        pilots: a.pilots as number,
        void_spawns: a.void_spawns as number,
        complete: yesNo(a.complete),
        note: a.note as string | null,
      })),
    },
    {
      kind: 'line',
      label: 'Budget',
      text:
        (b.bound_usd === null
          ? `${usd(b.spent_usd)}, ${b.spawns} spawns; no budget is registered`
          : `${budgetFigures(b)}: ${b.within === null ? 'UNKNOWN' : b.within ? 'within' : 'OVER'}`) +
        (b.unpriced ? `; ${b.unpriced} spawn(s) with no total_cost_usd not counted` : ''),
    },
    { kind: 'line', label: 'Uniformity', text: `${uniformityText(v.uniformity)}${outliers ? '' : '; no outlier'}` },
    { kind: 'line', label: 'Pre-registration', text: `${v.preregistered}: ${v.preregistration.reason}` },
    {
      kind: 'table',
      columns: [
        { key: 'file' },
        { key: 'commit' },
        { key: 'committed_at', title: 'committed' },
        { key: 'governs', title: 'first spawn it governs' },
        { key: 'order' },
      ],
      rows: v.preregistration.compared.map((c) => ({ ...c })),
    },
  ];
}

/** The JSON form: conjuncts, complete, budget, preregistered, holds, and the detail behind them. */
export function verdictJson(v: Verdict) {
  return {
    probe: v.probe,
    conjuncts: v.conjuncts,
    complete: v.complete,
    budget: v.budget,
    preregistered: v.preregistered,
    holds: v.holds,
    reasons: v.reasons,
    completeness: v.completeness,
    uniformity: v.uniformity,
    preregistration: v.preregistration,
  };
}

export function formatVerdicts(vs: Verdict[], format: VerdictFormat, style: TableStyle = {}): string {
  if (format === 'json') return toJson(vs.length === 1 ? verdictJson(vs[0]!) : vs.map(verdictJson));
  return vs.map((v) => formatReport(verdictParts(v), format, style)).join('\n');
}
