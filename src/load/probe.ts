/**
 * Loads one or more probe directories into DuckDB tables. It finds the files, has DuckDB parse
 * them (jsonl.ts), validates every record (validate.ts), builds the typed tables every query reads,
 * and checks what spans records: unique seq and session_id, a tool_use file for every row, and
 * that the registration and notes name sessions that exist. It computes no figures.
 *
 * Tables (every one carries `probe`, the probe directory's name):
 *   spawns, tool_uses, skill_calls, permission_denials, model_usage, artifacts, markers,
 *   registered_arms, addenda, pilot_sessions, void_arms, conjuncts, budgets, spawn_notes,
 *   registration_records, source_files.
 */
import { statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { type Database, pathList, sqlString } from '../db/database.js';
import { errText, physicalLine, readJsonl } from './jsonl.js';
import { firstHomePath, HOME_PATH_RE2 } from '../base/home-paths.js';
import { displayPath } from '../base/paths.js';
import { discoverProbe, namedResults, type Probe, type SourceFile } from './inputs.js';
import { NOTES, RESULTS, SKILL_RESULTS, TOOL_USE } from './record-schemas.js';
import { REGISTRATION, REGISTRATION_KINDS } from './registration-schemas.js';
import { PARALLEL_BYTES } from '../db/engine.js';
import { readSql } from '../db/queries.js';
import { recordError, validateAll } from './validate.js';
import { checkDuplicates } from './unique-keys.js';

export interface LoadResult {
  probes: Probe[];
  /** Things worth saying that do not stop the load (printed on stderr by the CLI). */
  warnings: string[];
}

/** Load probe directories into `db`: several at once, as namedInputs gives them (refuseRepeatedProbes). */
export async function loadProbes(db: Database, paths: string[]): Promise<LoadResult> {
  const probes: Probe[] = [];
  const files: SourceFile[] = [];
  // What tool_use/ holds besides its records is said, as an orphan record is: nothing reads it.
  const warnings: string[] = [];
  for (const p of paths) {
    const found = discoverProbe(p);
    probes.push(found.probe);
    files.push(...found.files);
    for (const rel of found.ignored) warnings.push(`${found.probe.id}/${rel}: not a <session_id>.jsonl or .err; ignored`);
  }
  if (files.reduce((n, f) => n + (statSync(f.abs, { throwIfNoEntry: false })?.size ?? 0), 0) >= PARALLEL_BYTES) await db.useThreads();
  return { probes, warnings: [...warnings, ...(await loadFiles(db, files, true))] };
}

/**
 * Load a lone results.jsonl (no tool_use/ needed: `extract` is what writes it). The probe id is
 * the name of the file's directory.
 */
export async function loadResultsFile(db: Database, path: string): Promise<LoadResult> {
  const { abs, dir } = namedResults(path);
  const probe: Probe = { id: basename(dir), dir, registered: false };
  const file: SourceFile = { abs, probe: probe.id, kind: 'results', rel: basename(abs), session: null };
  return { probes: [probe], warnings: await loadFiles(db, [file], false) };
}

async function loadFiles(db: Database, files: SourceFile[], toolUseRequired: boolean): Promise<string[]> {
  const warnings: string[] = [];
  await db.exec(readSql('probe/macros'));
  const listed = files.map((f) => ({ abs: f.abs, probe: f.probe, kind: f.kind, rel: f.rel, session_id: f.session }));
  await db.exec(readSql('probe/source-files'), { files: JSON.stringify(listed) }, 'listing the files');
  const jsonl = files.filter((f) => f.kind !== 'tool_use_err').map((f) => f.abs);
  await readJsonl(db, jsonl);
  // The envelope a results row carries is resolved once, for the checks and tables that look inside
  // it. records is a plain table, dropped at the end, so that a second connection can check it.
  await db.exec(readSql('probe/records'), undefined, 'reading the records');
  await refuseOversized(db);
  // The records are checked on a second connection while this one builds the tables from them. A
  // record the checks refuse is the error to report, whatever building made of it (inParallel
  // throws the second connection's error first).
  await db.inParallel(async (here) => {
    await buildRegistration(here);
    await buildSpawns(
      here,
      files.filter((f) => f.kind === 'tool_use_err').map((f) => f.abs),
    );
  }, checkRecords);
  await checkSpawns(db, warnings, toolUseRequired);
  // Home-directory paths are looked for on a second connection while this one builds the details;
  // their warnings come after the others.
  const [, leaks] = await db.inParallel(async (here) => {
    await buildDetails(here);
    await checkReferences(here);
  }, homePathWarnings);
  warnings.push(...leaks);
  await db.exec(`drop table records`);
  return warnings;
}

/** The most bytes a registration record or a note may hold. */
const MAX_SMALL_RECORD = 1024 * 1024;

/** A registration record or note too large for what it is: refused before any table is built from it. */
async function refuseOversized(db: Database): Promise<void> {
  const big = (await db.query(readSql('probe/oversized'), { limit: MAX_SMALL_RECORD }, 'checking record sizes')).rows[0];
  if (big) {
    const mib = (Number(big.size) / (1024 * 1024)).toFixed(1);
    throw recordError(
      String(big.file),
      Number(big.rec),
      `a record of ${mib} MiB, over the 1 MiB a registration record or a note may hold`,
      'a registration or a note is a few lines of JSON: shorten it',
    );
  }
}

/** Every record against its kind's schema, then the keys that must be unique within a probe. */
async function checkRecords(db: Database): Promise<void> {
  await db.exec(`${readSql('rfc3339')}\n${readSql('probe/macros')}`);
  await rejectJsonValues(db, 'records');
  await validateAll(db, 'records', [
    { schema: RESULTS, where: `kind = 'results'` },
    { schema: TOOL_USE, where: `kind = 'tool_use'` },
    { schema: SKILL_RESULTS, where: `kind = 'skill_results'` },
    { schema: NOTES, where: `kind = 'notes'` },
    { schema: REGISTRATION, where: `kind = 'registration'` },
    ...Object.entries(REGISTRATION_KINDS).map(([kind, schema]) => ({
      schema,
      // Through a CASE, so that no other record is parsed for its kind (a string: ->> gives any other JSON value as its text).
      where: `case when kind = 'registration' then json ->> 'kind' end = ${sqlString(kind)}`,
    })),
  ]);
  await checkDuplicates(db);
  await checkConjunctNumbers(db);
}

/**
 * What DuckDB's reader lets through but RFC 8259 does not: a trailing comma, NaN, Inf and Infinity
 * (in any case, with or without a minus), a key repeated within one object (readers disagree on which copy
 * wins), and nesting past 256 levels. Every record of `table` (file, rec, json;
 * sql/json-values.sql); the first offending record by file and line is the error. A probe's records and its committed transcripts
 * both go through here.
 */
export async function rejectJsonValues(db: Database, table: string): Promise<void> {
  await db.exec(`create or replace temp view json_records as select file, rec, json from ${table}`);
  const b = (await db.query(readSql('json-values'), undefined, 'checking JSON values')).rows[0];
  await db.exec('drop view json_records');
  if (!b) return;
  const [file, rec, detail] = [String(b.file), Number(b.rec), String(b.detail)];
  if (b.what === 'comma') throw recordError(file, rec, 'a trailing comma before ] or } (RFC 8259 has none)', 'remove the comma');
  if (b.what === 'number')
    throw recordError(file, rec, `${detail} is not a JSON value (RFC 8259 has no NaN or Infinity)`, 'write a finite number, or null');
  if (b.what === 'depth')
    throw recordError(
      file,
      rec,
      'a value is nested more than 256 levels deep',
      'RFC 8259 lets a reader limit nesting, and no record needs this much: flatten it',
    );
  throw recordError(
    file,
    rec,
    `key ${JSON.stringify(detail)} is repeated within one object`,
    'readers disagree on which copy wins: keep one',
  );
}

/**
 * Conjunct numbers run 1..N within a probe, with no gap and no repeat: the first record, by number
 * (then file and line), that repeats the number before it, or whose number is not its rank.
 */
async function checkConjunctNumbers(db: Database): Promise<void> {
  const res = await db.query(readSql('probe/conjunct-numbers'), undefined, 'checking conjunct numbers');
  const g = res.rows[0];
  if (!g) return;
  const [n, rank] = [Number(g.n), Number(g.rank)];
  let what: string;
  if (n === g.prev_n) {
    const line = physicalLine(String(g.prev_file), Number(g.prev_rec));
    what = `conjunct ${n} is registered twice (first at ${g.prev_file === g.file ? `line ${line}` : `${displayPath(String(g.prev_file))}:${line}`})`;
  } else {
    what = n > rank ? `conjunct ${n} leaves a gap: no conjunct ${rank} is registered` : `conjunct ${n}: conjuncts are numbered from 1`;
  }
  throw recordError(String(g.file), Number(g.rec), what, 'number the conjuncts 1..N, with no gap and no repeat');
}

async function buildRegistration(db: Database): Promise<void> {
  await db.exec(readSql('probe/registration'), undefined, 'building the registration tables');
}

async function buildSpawns(db: Database, errFiles: string[]): Promise<void> {
  for (const f of errFiles) errText(f); // read_text's own refusal of bytes that are not UTF-8 names no line
  if (errFiles.length) await db.exec(readSql('probe/stderr'), { err_files: pathList([...errFiles].sort()) }, 'building spawns');
  else await db.exec('create or replace temp table spawn_stderr (probe VARCHAR, session_id VARCHAR, content VARCHAR)');
  await db.exec(readSql('probe/spawns'), undefined, 'building spawns');
}

async function checkSpawns(db: Database, warnings: string[], toolUseRequired: boolean): Promise<void> {
  const unmatched = await db.query(readSql('probe/unmatched'));
  const m = unmatched.rows.find((r) => r.what === 'missing');
  if (m && toolUseRequired) {
    throw recordError(
      String(m.file),
      Number(m.rec),
      `no tool_use/${m.name}.jsonl for this row`,
      'every row needs its tool_use file; an empty file means the spawn made no tool call',
    );
  }
  const orphans = { rows: unmatched.rows.filter((r) => r.what === 'orphan').map((r) => ({ probe: r.probe, rel: r.name })) };
  for (const o of orphans.rows) warnings.push(`${o.probe}/${o.rel}: matches no row of results.jsonl; ignored`);
}

async function buildDetails(db: Database): Promise<void> {
  await db.exec(readSql('probe/details'), undefined, 'building the tables');
  // Envelope token counts that each fit but add up past what a total can hold: named where they pass it.
  const over = (await db.query(readSql('probe/usage-total'), undefined, 'building the tables')).rows[0];
  if (over) {
    throw recordError(
      String(over.file),
      Number(over.rec),
      `results.jsonl row: the envelopes' modelUsage token counts up to this row add up to ${over.n}, past 2^63 - 1`,
      'no total can hold them; no spawn counts so many tokens',
    );
  }
  // Costs that each fit a DOUBLE but add up past it: a total would read Infinity, and json null ("unknown").
  const huge = (await db.query(readSql('probe/cost-total'), undefined, 'building the tables')).rows[0];
  if (huge) {
    throw recordError(
      String(huge.file),
      Number(huge.rec),
      "results.jsonl row: the envelopes' costs up to this row add up past the largest number a total can hold",
      'no spawn costs so much: check total_cost_usd and modelUsage costUSD',
    );
  }
}

/** Throw for the first reference (references.sql) that names nothing, by the order of REFERENCES. */
async function checkReferences(db: Database): Promise<void> {
  const res = await db.query(readSql('probe/references'));
  for (const [what, [message, hint]] of Object.entries(REFERENCES)) {
    const r = res.rows.find((row) => row.what === what);
    if (r)
      throw recordError(String(r.file), Number(r.rec), message(String(r.name), String(r.probe), inProbeOf(String(r.file), what)), hint);
  }
}

/**
 * A file `name` of the probe that holds record file `file`, as shown, by the kind of record that names
 * it (`what`): a tool_use record is in PROBE/tool_use/, a registration record in PROBE/registration/,
 * the others (notes.jsonl, skill_results.jsonl) in PROBE. By kind, not by searching the path: a probe
 * inside a folder named tool_use or registration had been cut at that folder.
 */
function inProbeOf(file: string, what: string): (name: string) => string {
  const at = file.lastIndexOf(`${sep}registration${sep}`);
  const probe =
    what === 'skill-missing' || what === 'skill-file'
      ? dirname(dirname(file))
      : (what === 'pilot' || what === 'void') && at >= 0
        ? file.slice(0, at)
        : dirname(file);
  return (name) => displayPath(join(probe, name));
}

/**
 * What each broken reference is, given its `name` (and a skill result's session), and what to do:
 * notes and pilots name spawns, voids registered arms, and skill results pair Skill calls.
 */
const REFERENCES: Record<string, [(name: string, session: string, inProbe: (name: string) => string) => string, string]> = {
  note: [
    (s, _, inProbe) => `notes.jsonl row: session "${s}" is not in ${inProbe('results.jsonl')}`,
    'a note names the session_id of a results.jsonl row',
  ],
  pilot: [
    (s, _, inProbe) => `addendum declares pilot session "${s}", which is not in ${inProbe('results.jsonl')}`,
    'a pilot is named by the full session_id of a results.jsonl row',
  ],
  void: [(arm) => `addendum voids arm "${arm}", which is not registered`, 'a void names an arm of an "arm" record, spelled as it is there'],
  replaces: [(arm) => `arm replaces arm "${arm}", which is not registered`, '"replaces" names a registered arm, spelled as it is there'],
  'skill-call': [
    (id, session) => `skill_results.jsonl row: call "${id}" is no Skill call of session "${session}" in tool_use/`,
    "a skill result pairs a Skill call of its spawn's tool_use/<session_id>.jsonl, by its id",
  ],
  'skill-unnamed': [
    // The call's file named too: it is where a skill went missing (the row may be as extract wrote it).
    (id, session, inProbe) =>
      `skill_results.jsonl row: call "${id}" of ${inProbe(`tool_use/${session}.jsonl`)} records no skill, so no row answers it`,
    'a skill result pairs a Skill call that names a skill; extract writes none for a call that names none',
  ],
  'skill-name': [
    (skill) => `skill_results.jsonl row: its "skill" is not the one its call records ("${skill}")`,
    'a skill result names the skill its call named',
  ],
  'skill-arm': [
    (arm) => `skill_results.jsonl row: its "arm" is not its spawn's ("${arm}" in results.jsonl)`,
    "a skill result names its spawn's arm, or none",
  ],
  'skill-missing': [
    (id, _, inProbe) => `tool_use record: Skill call "${id}" has no row in ${inProbe('skill_results.jsonl')}`,
    'skill_results.jsonl holds one row per Skill call of the probe',
  ],
  // Without the file its rows would all be gone, and a conjunct that reads them would see no launch.
  'skill-file': [
    (id, _, inProbe) => `tool_use record: Skill call "${id}" names a skill, and there is no ${inProbe('skill_results.jsonl')}`,
    'a probe whose Skill calls name skills commits skill_results.jsonl, a row per call: run `omg-evidence extract`, or commit the file',
  ],
};

/**
 * The warnings for each committed file that holds a home-directory path (home-paths.ts): a record of any
 * kind, or a tool_use/<session_id>.err. It names the file's first such line and the path, and how
 * many more lines hold one. The evidence still loads: nothing in it is wrong, but it leaks the
 * measuring machine.
 */
async function homePathWarnings(db: Database): Promise<string[]> {
  const res = await db.query(readSql('probe/home-paths'), { re: HOME_PATH_RE2 }, 'checking for home-directory paths');
  return res.rows.map((r) => {
    const line = r.file === null ? Number(r.rec) : physicalLine(String(r.file), Number(r.rec));
    const more = Number(r.n) > 1 ? ` (and ${Number(r.n) - 1} more line(s))` : '';
    // DuckDB found it; the same matcher in JavaScript trims what RE2 cannot leave out (home-paths.ts).
    const path = firstHomePath(String(r.path))?.text ?? String(r.path);
    return `${r.probe}/${r.rel}:${line}: holds the home-directory path ${path}${more} (committed records must not leak the measuring machine: write such paths with $HOME)`;
  });
}
