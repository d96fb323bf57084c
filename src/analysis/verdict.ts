/**
 * The verdict of a probe, computed mechanically: the registered conjuncts as their checks
 * evaluated them (queries/verdict.sql), completeness (queries/completeness.sql), the budget
 * (queries/budget.sql), uniformity (queries/uniformity.sql), and pre-registration order from git
 * (git.ts). It holds only when every conjunct holds, the probe is complete, it is within budget,
 * and git does not show the registration came after the data.
 */
import { join } from 'node:path';
import type { Budget, Conjunct, Row } from '../base/shapes.js';
import type { Result } from '../db/database.js';

export type { Budget, Conjunct } from '../base/shapes.js';
import { InputError } from '../base/errors.js';
import { preregistration, type Answer, type Preregistration } from './git.js';
import { displayPath } from '../base/paths.js';

export interface Verdict {
  probe: string;
  conjuncts: Conjunct[];
  complete: boolean;
  completeness: Row[];
  budget: Budget;
  uniformity: Row[];
  preregistered: Answer;
  preregistration: Preregistration;
  holds: boolean;
  /** Why it does not hold; empty when it does. */
  reasons: string[];
}

/**
 * What a verdict reads, as the facade (evidence.ts) hands it down: the loaded probes, and public
 * queries run by name. A parameter, not an import, so that analysis/ never reaches up to the facade.
 */
export interface VerdictSource {
  readonly probes: readonly Readonly<{ id: string; dir: string; registered: boolean }>[];
  query(name: string): Promise<Result>;
  /** Run every registered check once, before the queries that read their results. */
  evaluateRegistration(): Promise<void>;
}

const strip = ({ probe: _probe, ...rest }: Row) => rest;

/** The queries a verdict runs, with the forgeable markers its warnings name: what `verdict` opens the evidence for (OpenOptions.queries). */
export const VERDICT_QUERIES = [
  'verdict',
  'completeness',
  'budget',
  'uniformity',
  'registration_parts',
  'forgeable',
  'spawns_over_envelope',
];

/** The verdict of every loaded probe, in load order. A probe with no registration is an error. */
export async function verdicts(ev: VerdictSource): Promise<Verdict[]> {
  for (const p of ev.probes) {
    if (!p.registered) {
      throw new InputError(
        `${displayPath(p.dir)}: the probe has no registration/ folder`,
        'a verdict needs the conjuncts registered before the first spawn; see docs/registration.md',
      );
    }
  }
  // git reads the registration's history while its checks run: which files it reads depends on the
  // loaded records alone (registration_parts), not on what the checks answer.
  const parts = (await ev.query('registration_parts')).rows;
  const pres = new Map(
    ev.probes.map((p) => {
      const mine = parts.filter((r) => r.probe === p.id);
      const pre = preregistration(
        p.dir,
        join(p.dir, 'results.jsonl'),
        mine.map((r) => ({
          path: join(p.dir, String(r.file)),
          governs: (r.governs as string | null) ?? null,
          session: (r.governs_session as string | null) ?? null,
          voids: r.voids === true,
          spawns: (r.spawns as { session_id: string; started_at: string }[]).map((g) => ({
            session: g.session_id,
            started_at: g.started_at,
          })),
        })),
      );
      // Awaited below; a failure of the checks first must not leave it unhandled.
      pre.catch(() => undefined);
      return [p.id, pre] as const;
    }),
  );
  await ev.evaluateRegistration();
  const [conjuncts, completeness, budgets, uniformity] = await Promise.all(
    ['verdict', 'completeness', 'budget', 'uniformity'].map(async (q) => (await ev.query(q)).rows),
  );
  return Promise.all(
    ev.probes.map(async (p) => {
      const mine = (rows: Row[]) => rows.filter((r) => r.probe === p.id);
      const cs = mine(conjuncts!).map(strip) as unknown as Conjunct[];
      if (cs.length === 0) {
        throw new InputError(
          `${displayPath(join(p.dir, 'registration'))}: the registration has no conjunct`,
          'register the conditions the verdict requires as "conjunct" records',
        );
      }
      const arms = mine(completeness!).map(strip);
      const budget = strip(mine(budgets!)[0]!) as unknown as Budget;
      const pre = await pres.get(p.id)!;
      const reasons: string[] = [];
      for (const c of cs) if (!c.holds) reasons.push(`conjunct ${c.n} (${c.required}) does not hold: ${c.result}`);
      const incomplete = arms.filter((a) => !a.complete);
      for (const a of incomplete) reasons.push(`incomplete: ${a.arm} ${a.note}`);
      if (budget.bound_usd === null) reasons.push('no budget is registered');
      else if (budget.within === null) {
        reasons.push(
          `the budget cannot be checked: ${budget.unpriced} spawn(s) that ran give no total_cost_usd (no envelope, or one without it), so what they cost is unknown`,
        );
      } else if (!budget.within) {
        reasons.push(`over budget: $${budget.spent_usd} of $${budget.bound_usd}, ${budget.spawns} of ${budget.bound_spawns} spawns`);
      }
      if (pre.answer === 'no') reasons.push(`not pre-registered: ${pre.reason}`);
      return {
        probe: p.id,
        conjuncts: cs,
        complete: incomplete.length === 0,
        completeness: arms,
        budget,
        uniformity: mine(uniformity!).map(strip),
        preregistered: pre.answer,
        preregistration: pre,
        holds: reasons.length === 0,
        reasons,
      };
    }),
  );
}

/**
 * `v` when pre-registration must be shown (verdict --require-preregistered): "not established"
 * fails it too, as "no" always does.
 */
export function requirePreregistered(v: Verdict): Verdict {
  if (v.preregistered !== 'not established') return v;
  return { ...v, holds: false, reasons: [...v.reasons, `pre-registration not established: ${v.preregistration.reason}`] };
}
