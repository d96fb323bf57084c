/**
 * Runs a probe's registered SQL: the trigger of every conditional arm and the check of every
 * conjunct (README, "The registration"). Each file is one SELECT over the loaded tables, given
 * `$probe`; a trigger returns one row (fired, observed), a check one row (holds, result). Their
 * answers are stored in the tables `trigger_results` and `conjunct_results`, which queries/ read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Database } from './db.js';
import { InputError } from './errors.js';
import { physicalLine } from './jsonl.js';
import { displayPath } from './paths.js';
import type { Probe } from './probe.js';

interface Spec {
  what: string;
  columns: [string, 'BOOLEAN' | 'VARCHAR'][];
}

const TRIGGER: Spec = { what: 'trigger', columns: [['fired', 'BOOLEAN'], ['observed', 'VARCHAR']] };
const CHECK: Spec = { what: 'check', columns: [['holds', 'BOOLEAN'], ['result', 'VARCHAR']] };

/** Run one registered SQL file for `probe` and return its single row. */
async function runFile(db: Database, probe: Probe, file: string, rec: number, path: string, spec: Spec): Promise<Record<string, unknown>> {
  const regDir = join(probe.dir, 'registration');
  const from = `${displayPath(join(probe.dir, file))}:${physicalLine(join(probe.dir, file), rec)}`;
  const abs = resolve(regDir, path);
  if (relative(regDir, abs).startsWith('..') || relative(regDir, abs).split(sep).includes('..')) {
    throw new InputError(`${from}: ${spec.what} "${path}" is outside registration/`, 'name a .sql file inside the registration folder');
  }
  if (!existsSync(abs)) {
    throw new InputError(`${from}: ${spec.what} file "${path}" does not exist`, `write registration/${path}, one SELECT returning ${spec.columns.map((c) => c[0]).join(', ')}`);
  }
  const sql = readFileSync(abs, 'utf8');
  const params = /\$probe\b/.test(sql) ? { probe: probe.id } : undefined;
  const res = await db.query(sql, params, displayPath(abs));
  const want = spec.columns.map(([name, type]) => `${name} ${type}`).join(', ');
  const got = res.columns.map((c, i) => `${c} ${res.types[i]}`).join(', ');
  if (res.rows.length !== 1 || got !== want) {
    throw new InputError(
      `${displayPath(abs)}: a ${spec.what} returns one row (${want}); this one returned ${res.rows.length} row(s) (${got})`,
      `fix the ${spec.what}'s SELECT`,
    );
  }
  return res.rows[0]!;
}

/** Evaluate every trigger and conjunct check of `probes` into trigger_results and conjunct_results. */
export async function evaluateRegistration(db: Database, probes: Probe[]): Promise<void> {
  await db.exec(`create or replace temp table trigger_results (probe VARCHAR, arm VARCHAR, fired BOOLEAN, observed VARCHAR)`);
  await db.exec(`create or replace temp table conjunct_results (probe VARCHAR, n BIGINT, required VARCHAR, result VARCHAR, holds BOOLEAN)`);
  for (const probe of probes) {
    const arms = await db.query(
      `select arm, trigger, file, rec from registered_arms where probe = $probe and trigger is not null order by ordinal`,
      { probe: probe.id },
    );
    for (const a of arms.rows) {
      const r = await runFile(db, probe, String(a.file), Number(a.rec), String(a.trigger), TRIGGER);
      await db.exec(`insert into trigger_results values ($probe, $arm, $fired, $observed)`, {
        probe: probe.id, arm: String(a.arm), fired: r.fired as boolean, observed: r.observed as string,
      });
    }
    const checks = await db.query(
      `select n, required, "check", file, rec from conjuncts where probe = $probe order by n`,
      { probe: probe.id },
    );
    for (const c of checks.rows) {
      const r = await runFile(db, probe, String(c.file), Number(c.rec), String(c.check), CHECK);
      await db.exec(`insert into conjunct_results values ($probe, $n, $required, $result, $holds)`, {
        probe: probe.id, n: Number(c.n), required: String(c.required), result: r.result as string, holds: r.holds as boolean,
      });
    }
  }
}
