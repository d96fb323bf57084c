/**
 * `omg-evidence verdict [PROBE...]`: the probe's verdict against its registered conjuncts, with
 * completeness, budget, uniformity and pre-registration order (verdict.ts). Exit 0 when it holds,
 * 4 when it does not.
 */
import { Command } from 'commander';
import { forgeryWarnings } from '../../output/census-block.js';
import type { Row, Verdict } from '../../evidence.js';
import { VerdictError } from '../../base/errors.js';
import { Evidence, withEvidence } from '../../evidence.js';
import { toJson, type TableStyle } from '../../output/formats.js';
import { warn, type IO } from '../io.js';
import { chosenFormat, dbOption, formatOption, tableStyle, wideOption } from '../options.js';
import { bound, layout, percent, usd, type Part } from '../../output/report.js';

const FORMATS = ['table', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];

const yesNo = (b: unknown) => (b === true ? 'yes' : b === false ? 'no' : '');

/** "claude_version 2.1.228 in 28 of 28 spawns; …", with every other value named as an outlier. */
export function uniformityText(rows: Row[]): string {
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
        b.bound_usd === null
          ? `${usd(b.spent_usd)}, ${b.spawns} spawns; no budget is registered`
          : `${usd(b.spent_usd)} of ${bound(b.bound_usd)} (${percent(b.share_usd)}), ${b.spawns} of ${b.bound_spawns} spawns (${percent(b.share_spawns)}): ${b.within ? 'within' : 'OVER'}`,
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

export function formatVerdicts(vs: Verdict[], format: Format, style: TableStyle = {}): string {
  if (format === 'json') return toJson(vs.length === 1 ? verdictJson(vs[0]!) : vs.map(verdictJson));
  return vs.map((v) => layout(verdictParts(v), format, style)).join('\n');
}

export function makeVerdictCommand(io: IO): Command {
  return new Command('verdict')
    .description("the probe's verdict against the conjuncts registered before its first spawn (exit 4 when it does not hold)")
    .argument('[probe...]', 'probe directories')
    .addOption(formatOption(FORMATS))
    .addOption(wideOption())
    .addOption(dbOption())
    .action(async (probes: string[], opts: { format?: Format; wide?: boolean; db?: string }) => {
      const format = chosenFormat(opts.format, io);
      // Each probe's own transcripts/ is read when present, to tell which markers the spawns could have forged.
      await withEvidence(Evidence.open(probes, { onWarning: (w) => warn(io, w), db: opts.db, ownTranscripts: true }), async (ev) => {
        const vs = await ev.verdicts();
        io.stdout(formatVerdicts(vs, format, tableStyle(io, opts.wide)));
        // The K-FM lesson: warnings only, whatever they say the exit code stays the verdict's.
        for (const line of forgeryWarnings(await ev.forgeableRows())) warn(io, line);
        const failing = vs.filter((v) => !v.holds);
        if (failing.length) {
          throw new VerdictError(failing.map((v) => `${v.probe}: the verdict does not hold: ${v.reasons.join('; ')}`).join(' | '));
        }
      });
    });
}
