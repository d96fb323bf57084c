/**
 * Runs a probe's registered SQL: the trigger of every conditional arm and the check of every
 * conjunct (docs/registration.md). Each file is one SELECT over the documented views, given
 * `$probe`; a trigger returns one row (fired, observed), a check one row (holds, result). Their
 * answers are stored in the tables `trigger_results` and `conjunct_results`, which queries/ read.
 *
 * A registered file is a question, never a change (registered-sql.ts). DuckDB's parser decides that it is exactly one
 * SELECT, and its syntax tree that it reads only documented views and its own CTEs, and no file or
 * catalog; it then runs in a sandbox (Database.sandbox: a connection of its own, in a transaction
 * that is rolled back) of a sealed database. The answers are kept on the connection that loaded
 * the evidence, which no user SQL reaches.
 */
import { join } from 'node:path';
import type { Database } from '../db/database.js';
import { InputError, OmgError } from '../base/errors.js';
import { inOrder } from '../base/in-order.js';
import { timerAfter } from '../base/timer.js';
import { isMemorySize, memoryBytes } from '../base/memory.js';
import { bounded, GRACE_SECONDS } from '../base/supervision.js';
import { displayPath } from '../base/paths.js';
import { readRegisteredFile } from '../base/registered-file.js';
import { mustBeAQuestion, scopeToProbe, type Spec } from './registered-sql.js';

/** A loaded probe: its id and absolute directory. */
type Probe = { id: string; dir: string };

/** The physical line of record `rec` of `file` (load/jsonl.ts physicalLine, which the facade passes down). */
export type LineOf = (file: string, rec: number) => number;

const TRIGGER: Spec = {
  what: 'trigger',
  columns: [
    ['fired', 'BOOLEAN'],
    ['observed', 'VARCHAR'],
  ],
};
const CHECK: Spec = {
  what: 'check',
  columns: [
    ['holds', 'BOOLEAN'],
    ['result', 'VARCHAR'],
  ],
};

/** Run one registered SQL file for `probe` (`scoped`: among others) and return its single row. */
async function runFile(
  db: Database,
  probe: Probe,
  file: string,
  rec: number,
  path: string,
  spec: Spec,
  lineOf: LineOf,
  budget: { seconds: number; ends: number },
  scoped: boolean,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const from = `${displayPath(join(probe.dir, file))}:${lineOf(join(probe.dir, file), rec)}`;
  const read = readRegisteredFile(join(probe.dir, 'registration'), path);
  const where = displayPath(read.abs);
  if ('refused' in read) {
    const inside = 'name a .sql file inside the registration folder';
    switch (read.refused) {
      case 'outside':
        throw new InputError(`${from}: ${spec.what} "${path}" is outside registration/`, inside);
      case 'folder':
        throw new InputError(`${from}: ${spec.what} "${path}" is not a file`, inside);
      case 'missing':
        throw new InputError(
          `${from}: ${spec.what} file "${path}" does not exist`,
          `write registration/${path}, one SELECT returning ${spec.columns.map((c) => c[0]).join(', ')}`,
        );
      case 'large':
        throw new InputError(
          `${where}: a ${spec.what} file of ${(read.size / 2 ** 20).toFixed(1)} MiB, over the 1 MiB a registered file may hold`,
          `a ${spec.what} is one SELECT: shorten it`,
        );
    }
  }
  const sql = read.text;
  // A registered file is evidence like any other, and may never end: every file of its probe is
  // stopped once the probe's budget is spent.
  const stop = new AbortController();
  const abort = () => stop.abort();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  let late = false;
  const timer = timerAfter(budget.ends - performance.now(), () => {
    late = true;
    abort();
  });
  let res: Awaited<ReturnType<Database['query']>>;
  try {
    res = await db.sandbox(async (box) => {
      const read = await mustBeAQuestion(box, sql, where, spec);
      await scopeToProbe(box, probe, scoped, read);
      const names = await box.parameters(sql, where).catch(bindHint(spec));
      const other = names.find((p) => p !== 'probe');
      if (other !== undefined) {
        throw new InputError(
          `${where}: uses the parameter $${other}; a ${spec.what} is given $probe only`,
          `fix the ${spec.what}'s SELECT`,
        );
      }
      return box.query(sql, names.length ? { probe: probe.id } : undefined, where).catch(bindHint(spec));
    }, stop.signal);
  } catch (err) {
    if (!late) throw err;
    throw new InputError(
      `${where}: the registered triggers and checks ran for more than ${budget.seconds} s in all, and this ${spec.what} was stopped`,
      `a ${spec.what} is one SELECT over the views, answered in moments: make it do less, or give it longer with --check-timeout SECONDS, or the library's checkTimeout`,
      { cause: err },
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
  const want = spec.columns.map(([name, type]) => `${name} ${type}`).join(', ');
  const got = res.columns.map((c, i) => `${c} ${res.types[i]}`).join(', ');
  if (res.rows.length !== 1 || got !== want) {
    throw new InputError(
      `${where}: a ${spec.what} returns one row (${want}); this one returned ${res.rows.length} row(s) (${got})`,
      `fix the ${spec.what}'s SELECT`,
    );
  }
  // A NULL is no answer: a trigger's would excuse the arms it governs as "did not fire".
  const [answer] = spec.columns[0]!;
  if (res.rows[0]![answer] === null) {
    throw new InputError(
      `${where}: a ${spec.what}'s ${answer} is true or false; this one returned NULL`,
      `fix the ${spec.what}'s SELECT (an aggregate over no rows gives NULL: coalesce it)`,
    );
  }
  return res.rows[0]!;
}

/** Seconds the registered triggers and checks of a probe may take in all, unless told otherwise. */
export const CHECK_SECONDS = 60;

/** How many registered files run at once, each in a sandbox of its own. */
const AT_ONCE = 4;

/**
 * Evaluate every trigger and conjunct check of `probes` into trigger_results and conjunct_results,
 * each probe's within `seconds` (0: no limit): a probe may register many.
 * A probe's files run a few at a time (each is a small query, so most of its time is round trips),
 * one probe after another, so that its time is its own, as when it is loaded alone; the error
 * reported is the first in registration order, as when they ran one after the other.
 */
export async function evaluateRegistration(
  db: Database,
  probes: readonly Readonly<Probe>[],
  lineOf: LineOf,
  seconds = CHECK_SECONDS,
): Promise<void> {
  await db.exec(`create or replace temp table trigger_results (probe VARCHAR, arm VARCHAR, fired BOOLEAN, observed VARCHAR)`);
  await db.exec(`create or replace temp table conjunct_results (probe VARCHAR, n BIGINT, required VARCHAR, result VARCHAR, holds BOOLEAN)`);
  type Job = { probe: Readonly<Probe>; row: Record<string, unknown>; spec: Spec; path: string };
  const jobs: Job[] = [];
  const answers: Record<string, unknown>[] = [];
  // DuckDB's memory limit, the same for every probe's checks: what the supervisor bounds them by.
  const limit = String((await db.query(`select current_setting('memory_limit') as m`)).rows[0]!.m);
  for (const probe of probes) {
    const mine: Job[] = [];
    const arms = await db.query(
      `select arm, trigger, file, rec from registered_arms where probe = $probe and trigger is not null order by ordinal`,
      { probe: probe.id },
    );
    for (const row of arms.rows) mine.push({ probe, row, spec: TRIGGER, path: String(row.trigger) });
    const checks = await db.query(`select n, required, "check", file, rec from conjuncts where probe = $probe order by n`, {
      probe: probe.id,
    });
    for (const row of checks.rows) mine.push({ probe, row, spec: CHECK, path: String(row.check) });
    // The probe's own budget, from when its first file starts: another probe's files take none of it.
    const budget = { seconds, ends: seconds > 0 ? performance.now() + seconds * 1000 : Number.POSITIVE_INFINITY };
    const file = (j: Job, signal: AbortSignal) =>
      runFile(db, j.probe, String(j.row.file), Number(j.row.rec), j.path, j.spec, lineOf, budget, probes.length > 1, signal);
    // DuckDB's planner heeds no interrupt: a supervisor (base/supervision.ts) stops the process past the budget.
    const said = `omg-evidence: ${displayPath(join(probe.dir, 'registration'))}: the registered triggers and checks`;
    const bound = {
      seconds,
      memoryBytes: isMemorySize(limit) ? memoryBytes(limit) : Number.MAX_SAFE_INTEGER,
      late: `${said} ran for more than ${seconds} s in all; DuckDB did not stop them, so the process running them was stopped ${GRACE_SECONDS} s later (a ${mine[0]?.spec.what ?? 'check'} is one SELECT over the views, answered in moments: make it do less, or give it longer with --check-timeout SECONDS)`,
      over: `${said} took more memory than DuckDB's limit allows (${limit}); DuckDB did not stop them, so the process running them was stopped (a check is one SELECT over the views, answered in moments: make it do less)`,
    };
    answers.push(...(await bounded(bound, () => inOrder(mine, AT_ONCE, file))));
    jobs.push(...mine);
  }
  for (const [i, { probe, row, spec }] of jobs.entries()) {
    const r = answers[i]!;
    if (spec === TRIGGER) {
      await db.exec(`insert into trigger_results values ($probe, $arm, $fired, $observed)`, {
        probe: probe.id,
        arm: String(row.arm),
        fired: r.fired as boolean,
        observed: r.observed as string,
      });
    } else {
      await db.exec(`insert into conjunct_results values ($probe, $n, $required, $result, $holds)`, {
        probe: probe.id,
        n: Number(row.n),
        required: String(row.required),
        result: r.result as string,
        holds: r.holds as boolean,
      });
    }
  }
}

/** A registered file DuckDB cannot bind or run: its error, with what a registered file sees. */
function bindHint(spec: Spec): (err: unknown) => never {
  return (err) => {
    // Only where DuckDB cannot bind a name: a conversion or error() of the check's own is told as it is.
    if (!(err instanceof OmgError) || err.hint || !/: (Binder|Catalog) Error: /.test(err.message)) throw err;
    throw new InputError(
      err.message,
      `fix the ${spec.what}'s SELECT: it sees the views omg-evidence schema lists, and transcript_files without abs and dir, which say where the evidence sits`,
      { cause: err },
    );
  };
}
