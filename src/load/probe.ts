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
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { type Database, pathList, sqlString } from '../db/database.js';
import { InputError } from '../base/errors.js';
import { physicalLine, readJsonl } from './jsonl.js';
import { firstHomePath, HOME_PATH_RE2 } from '../base/leaks.js';
import { displayPath, inputFile } from '../base/paths.js';
import { discoverProbe, type Probe, type SourceFile } from './inputs.js';
import { ENVELOPE_MACRO, NOTES, REGISTRATION, REGISTRATION_KINDS, RESULTS, SKILL_RESULTS, TOOL_USE } from './record-schemas.js';
import { readSql } from '../db/queries.js';
import { recordError, validateAll } from './validate.js';

export interface LoadResult {
  probes: Probe[];
  /** Things worth saying that do not stop the load (printed on stderr by the CLI). */
  warnings: string[];
}

/** Load probe directories into `db`. Several load at once; their ids must differ. */
export async function loadProbes(db: Database, paths: string[]): Promise<LoadResult> {
  const probes: Probe[] = [];
  const files: SourceFile[] = [];
  for (const p of paths) {
    const found = discoverProbe(p);
    const clash = probes.find((q) => q.id === found.probe.id);
    if (clash) {
      throw new InputError(
        `${displayPath(found.probe.dir)}: probe id "${found.probe.id}" is already loaded from ${displayPath(clash.dir)}`,
        'a probe is named by its directory; load probes whose directory names differ',
      );
    }
    probes.push(found.probe);
    files.push(...found.files);
  }
  return { probes, warnings: await loadFiles(db, files, true) };
}

/**
 * Load a lone results.jsonl (no tool_use/ needed: `extract` is what writes it). The probe id is
 * the name of the file's directory.
 */
export async function loadResultsFile(db: Database, path: string): Promise<LoadResult> {
  const abs = resolve(path);
  const dir = dirname(abs);
  // A file the user names may link anywhere; it must still be a regular file.
  if (!existsSync(dir) || !inputFile(abs, '/', dir)) {
    throw new InputError(`${displayPath(abs)}: no such results file`, 'give the path of a results.jsonl');
  }
  const probe: Probe = { id: basename(dir), dir, registered: false };
  const file: SourceFile = { abs, probe: probe.id, kind: 'results', rel: basename(abs), session: null };
  return { probes: [probe], warnings: await loadFiles(db, [file], false) };
}

async function loadFiles(db: Database, files: SourceFile[], toolUseRequired: boolean): Promise<string[]> {
  const warnings: string[] = [];
  const values = files
    .map((f) => `(${[f.abs, f.probe, f.kind, f.rel].map(sqlString).join(', ')}, ${f.session === null ? 'NULL' : sqlString(f.session)})`)
    .join(',\n');
  await db.exec(
    `${ENVELOPE_MACRO};
     create or replace table source_files (abs VARCHAR, probe VARCHAR, kind VARCHAR, rel VARCHAR, session_id VARCHAR);
     ${files.length ? `insert into source_files values ${values}` : ''}`,
  );
  const jsonl = files.filter((f) => f.kind !== 'tool_use_err').map((f) => f.abs);
  await readJsonl(db, 'raw_records', jsonl);
  // The envelope a results row carries is resolved once, for the checks and tables that look inside
  // it. records is a plain table, dropped at the end, so that a second connection can check it.
  await db.exec(
    `create or replace table records as
     select s.probe, s.kind, s.rel, s.session_id as file_session, r.file, r.rec, r.json,
            case when s.kind = 'results' then omg_envelope(r.json -> '$.envelope') end as env
     from raw_records r join source_files s on s.abs = r.file`,
  );
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
    await checkReferences(here, warnings);
  }, homePathWarnings);
  warnings.push(...leaks);
  await db.exec(`drop table records`);
  return warnings;
}

/** Every record against its kind's schema, then the keys that must be unique within a probe. */
async function checkRecords(db: Database): Promise<void> {
  await rejectJsonValues(db, 'records');
  await validateAll(db, 'records', [
    { schema: RESULTS, where: `kind = 'results'` },
    { schema: TOOL_USE, where: `kind = 'tool_use'` },
    { schema: SKILL_RESULTS, where: `kind = 'skill_results'` },
    { schema: NOTES, where: `kind = 'notes'` },
    { schema: REGISTRATION, where: `kind = 'registration'` },
    ...Object.entries(REGISTRATION_KINDS).map(([kind, schema]) => ({
      schema,
      where: `kind = 'registration' and json_type(json, '$.kind') = 'VARCHAR' and (json ->> 'kind') = ${sqlString(kind)}`,
    })),
  ]);
  await checkKinds(db);
  await checkDuplicates(db);
  await checkConjunctNumbers(db);
}

/**
 * What DuckDB's reader lets through but RFC 8259 does not: NaN, Infinity and -Infinity, a key
 * repeated within one object (readers disagree on which copy wins), and nesting past 256 levels.
 * Every node of every record of `table` (file, rec, json; sql/json-values.sql); the first
 * offending record by file and line is the error. A probe's records and its committed transcripts
 * both go through here.
 */
export async function rejectJsonValues(db: Database, table: string): Promise<void> {
  await db.exec(`create or replace temp view json_records as select file, rec, json from ${table}`);
  const b = (await db.query(readSql('json-values'), undefined, 'checking JSON values')).rows[0];
  await db.exec('drop view json_records');
  if (!b) return;
  const [file, rec, detail] = [String(b.file), Number(b.rec), String(b.detail)];
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

/** A registration record of a kind not in REGISTRATION_KINDS (a typo would drop what it registers) is an error. */
async function checkKinds(db: Database): Promise<void> {
  const kinds = Object.keys(REGISTRATION_KINDS);
  const res = await db.query(
    `select file, rec, json ->> 'kind' as kind from records
     where kind = 'registration' and (json ->> 'kind') not in (${kinds.map(sqlString).join(', ')})
     order by file, rec limit 1`,
    undefined,
    'checking registration kinds',
  );
  const u = res.rows[0];
  if (u) {
    throw recordError(
      String(u.file),
      Number(u.rec),
      `registration record of unknown kind ${JSON.stringify(String(u.kind))}`,
      `the kinds are ${kinds.join(', ')}; see the README, "The registration"`,
    );
  }
}

/**
 * Conjunct numbers run 1..N within a probe, with no gap and no repeat: the first record, by number
 * (then file and line), that repeats the number before it, or whose number is not its rank.
 */
async function checkConjunctNumbers(db: Database): Promise<void> {
  const res = await db.query(
    `select file, rec, n, rank, prev_n, prev_file, prev_rec from (
       select probe, file, rec, n, row_number() over w as rank, lag(n) over w as prev_n, lag(file) over w as prev_file, lag(rec) over w as prev_rec
       from (select probe, file, rec, (json ->> 'n')::BIGINT as n from records where kind = 'registration' and (json ->> 'kind') = 'conjunct')
       window w as (partition by probe order by n, file, rec))
     where n = prev_n or n <> rank
     order by probe, rank limit 1`,
    undefined,
    'checking conjunct numbers',
  );
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
  const sql: string[] = [];
  sql.push(`create or replace table registration_records as
     select probe, rel as file, rec, json ->> 'kind' as kind, json as record
     from records where kind = 'registration'`);
  // Registration order: the pre-registration's files first, then each addendum's file by its number.
  sql.push(
    `create or replace table registered_arms as
     with file_rank as (
       select probe, file, coalesce(min((record ->> 'n')::BIGINT) filter (where kind = 'addendum'), 0) as rank
       from registration_records group by all
     )
     select a.probe, row_number() over (partition by a.probe order by f.rank, a.file, a.rec) as ordinal,
            t.arm, t.phase, t.n, t.trigger, t.addendum, t.replaces, t.what, a.file, a.rec, a.record
     from (select probe, file, rec, record, from_json(record,
             '{"arm":"VARCHAR","phase":"VARCHAR","n":"BIGINT","trigger":"VARCHAR","addendum":"BIGINT","replaces":"VARCHAR","what":"VARCHAR"}') as t
           from registration_records where kind = 'arm') as a
     join file_rank as f using (probe, file)`,
  );
  sql.push(`create or replace table addenda as
     select probe, (record ->> 'n')::BIGINT as n, record ->> 'text' as text, file, record
     from registration_records where kind = 'addendum'`);
  sql.push(`create or replace table pilot_sessions as
     select probe, unnest(from_json(record -> 'pilot', '["VARCHAR"]')) as session_id, n as addendum
     from addenda where (record -> 'pilot') is not null`);
  sql.push(`create or replace table void_arms as
     select probe, v.arm, v.reason, addendum from (
       select probe, n as addendum, unnest(from_json(record -> 'void', '[{"arm":"VARCHAR","reason":"VARCHAR"}]')) as v
       from addenda where (record -> 'void') is not null)`);
  sql.push(`create or replace table conjuncts as
     select probe, (record ->> 'n')::BIGINT as n, record ->> 'required' as required, record ->> 'check' as "check", file, rec, record
     from registration_records where kind = 'conjunct'`);
  sql.push(`create or replace table budgets as
     select probe, (record ->> 'usd')::DOUBLE as usd, (record ->> 'spawns')::BIGINT as spawns, file, record
     from registration_records where kind = 'budget'`);
  sql.push(`create or replace table spawn_notes as
     select probe, json ->> 'session_id' as session_id, json ->> 'note' as note, file, rec
     from records where kind = 'notes'`);
  await db.exec(sql.join(';\n'), undefined, 'building the registration tables');
}

async function buildSpawns(db: Database, errFiles: string[]): Promise<void> {
  await db.exec(
    `create or replace table spawns as
     with rows as (
       select probe, rec, json, env, from_json(json, '{"seq":"BIGINT","arm":"VARCHAR","phase":"VARCHAR","session_id":"VARCHAR",
         "mode":"VARCHAR","argv_file":"VARCHAR","plugin_dir":"VARCHAR","started_at":"VARCHAR","ended_at":"VARCHAR",
         "exit_code":"BIGINT","claude_version":"VARCHAR"}') as t
       from records where kind = 'results'
     ), stderr as (${stderrSource(errFiles)})
     select r.probe, t.seq, t.arm, t.phase, t.session_id,
            case when p.session_id is not null then 'pilot'
                 when v.arm is not null then 'void'
                 else 'counted' end as status,
            t.exit_code,
            (r.env ->> 'total_cost_usd')::DOUBLE as cost_usd,
            t.claude_version, t.mode, t.argv_file, t.plugin_dir, t.started_at, t.ended_at,
            n.note, e.content as stderr,
            r.env as envelope,
            r.json as record
     from rows r
     left join pilot_sessions p on p.probe = r.probe and p.session_id = t.session_id
     left join (select distinct probe, arm from void_arms) v on v.probe = r.probe and v.arm = t.arm
     left join spawn_notes n on n.probe = r.probe and n.session_id = t.session_id
     left join stderr e on e.probe = r.probe and e.session_id = t.session_id
     order by r.probe, t.seq`,
    errFiles.length ? { err_files: pathList([...errFiles].sort()) } : undefined,
    'building spawns',
  );
}

/**
 * A SELECT of (probe, session_id, content) over the tool_use/*.err files, bound as $err_files;
 * read_text needs at least one file.
 */
function stderrSource(errFiles: string[]): string {
  if (errFiles.length === 0) return `select null::VARCHAR as probe, null::VARCHAR as session_id, null::VARCHAR as content where false`;
  return `select s.probe, s.session_id, t.content from read_text($err_files) t join source_files s on s.abs = t.filename`;
}

async function checkSpawns(db: Database, warnings: string[], toolUseRequired: boolean): Promise<void> {
  // Both directions at once: a row without its tool_use file, and a tool_use file without its row.
  const unmatched = await db.query(
    `select 'missing' as what, r.probe, r.file, r.rec, r.json ->> 'session_id' as name from records r
     where r.kind = 'results' and not exists (
       select 1 from source_files s where s.probe = r.probe and s.kind = 'tool_use' and s.session_id = (r.json ->> 'session_id'))
     union all
     select 'orphan', s.probe, null, null, s.rel from source_files s
     where s.kind in ('tool_use', 'tool_use_err')
       and not exists (select 1 from records r where r.kind = 'results' and r.probe = s.probe and (r.json ->> 'session_id') = s.session_id)
     order by what, probe, file, rec, name`,
  );
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
  const sql: string[] = [];
  sql.push(`create or replace table tool_uses as
     select r.probe, r.file_session as session_id, r.rec as ordinal,
            t.id as tool_use_id, t.name, t.input_keys, t.skill, t.agent_id, r.json as record
     from (select *, from_json(json, '{"id":"VARCHAR","name":"VARCHAR","input_keys":"VARCHAR[]","skill":"VARCHAR","agent_id":"VARCHAR"}') as t
           from records where kind = 'tool_use') r
     where exists (select 1 from spawns p where p.probe = r.probe and p.session_id = r.file_session)
     order by r.probe, r.file_session, r.rec`);
  sql.push(`create or replace table skill_calls as
     select r.probe, r.rec as ordinal, r.t.session_id, coalesce(r.t.arm, s.arm) as arm, r.t.tool_use_id, r.t.skill,
            r.t.is_error, r.t.result, r.json as record
     from (select probe, rec, json, from_json(json, '{"session_id":"VARCHAR","arm":"VARCHAR","tool_use_id":"VARCHAR","skill":"VARCHAR","is_error":"BOOLEAN","result":"VARCHAR"}') as t
           from records where kind = 'skill_results') as r
     left join spawns as s on s.probe = r.probe and s.session_id = r.t.session_id
     order by r.probe, r.rec`);
  // Items of the arrays inside each row, numbered within the row.
  sql.push(`create or replace table artifacts as
     select probe, session_id, i as ordinal, e ->> 'label' as label, e ->> 'path' as path, (e ->> 'exists')::BOOLEAN as present, e as record
     from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
           from (select probe, session_id, from_json(record -> 'artifacts', '["JSON"]') as l from spawns))
     order by probe, session_id, ordinal`);
  sql.push(`create or replace table markers as
     select probe, session_id, i as ordinal, e ->> 'label' as label, e ->> 'token' as token, e ->> 'file' as file, e ->> 'dir' as dir, e as record
     from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
           from (select probe, session_id, from_json(record -> 'markers', '["JSON"]') as l from spawns))
     order by probe, session_id, ordinal`);
  sql.push(`create or replace table permission_denials as
     select probe, session_id, i as ordinal, e ->> 'tool_name' as tool_name, e ->> 'tool_use_id' as tool_use_id, e -> 'tool_input' as tool_input, e as record
     from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
           from (select probe, session_id, from_json(envelope -> 'permission_denials', '["JSON"]') as l from spawns where envelope is not null))
     order by probe, session_id, ordinal`);
  sql.push(`create or replace table model_usage as
     select probe, session_id, i as ordinal, e.key as model,
            (e.value ->> 'costUSD')::DOUBLE as cost_usd,
            (e.value ->> 'inputTokens')::BIGINT as input_tokens,
            (e.value ->> 'outputTokens')::BIGINT as output_tokens,
            (e.value ->> 'cacheReadInputTokens')::BIGINT as cache_read_input_tokens,
            (e.value ->> 'cacheCreationInputTokens')::BIGINT as cache_creation_input_tokens,
            e.value as record
     from (select probe, session_id, unnest(m) as e, unnest(generate_series(1, len(m))) as i
           from (select probe, session_id, map_entries(from_json(envelope -> 'modelUsage', '"MAP(VARCHAR, JSON)"')) as m
                 from spawns where envelope is not null))
     order by probe, session_id, ordinal`);
  await db.exec(sql.join(';\n'), undefined, 'building the tables');
}

async function checkReferences(db: Database, warnings: string[]): Promise<void> {
  // Notes and pilots must name spawns that exist (errors); skill results should (a warning).
  const res = await db.query(
    `select 'note' as what, n.file, n.rec, n.session_id as name, null::VARCHAR as probe, null::BIGINT as n from spawn_notes n
     where not exists (select 1 from spawns s where s.probe = n.probe and s.session_id = n.session_id)
     union all
     select 'pilot', r.file, r.rec, p.session_id, null, null from pilot_sessions p
     join records r on r.probe = p.probe and r.kind = 'registration' and (r.json ->> 'kind') = 'addendum' and (r.json ->> 'n')::BIGINT = p.addendum
     where not exists (select 1 from spawns s where s.probe = p.probe and s.session_id = p.session_id)
     union all
     select 'skill', null, min(ordinal), null, probe, count(*) from skill_calls c
     where not exists (select 1 from spawns s where s.probe = c.probe and s.session_id = c.session_id)
     group by probe
     order by what, file, rec, probe`,
  );
  const u = res.rows.find((r) => r.what === 'note');
  if (u)
    throw recordError(
      String(u.file),
      Number(u.rec),
      `notes.jsonl row: session "${u.name}" is not in results.jsonl`,
      'a note names the session_id of a results.jsonl row',
    );
  const p = res.rows.find((r) => r.what === 'pilot');
  if (p)
    throw recordError(
      String(p.file),
      Number(p.rec),
      `addendum declares pilot session "${p.name}", which is not in results.jsonl`,
      'a pilot is named by the full session_id of a results.jsonl row',
    );
  for (const o of res.rows.filter((r) => r.what === 'skill')) {
    warnings.push(`${o.probe}/skill_results.jsonl: ${o.n} row(s) name a session that is not in results.jsonl (first: record ${o.rec})`);
  }
}

/**
 * The warnings for each committed file that holds a home-directory path (leaks.ts): a record of any
 * kind, or a tool_use/<session_id>.err. It names the file's first such line and the path, and how
 * many more lines hold one. The evidence still loads: nothing in it is wrong, but it leaks the
 * measuring machine.
 */
async function homePathWarnings(db: Database): Promise<string[]> {
  // Each line once: a record (rec, its record number), or a line of a .err file (rec, its line).
  const res = await db.query(
    `with lines as (
       select probe, rel, file, rec, json::VARCHAR as text from records
       union all
       select probe, rel, null, generate_subscripts(l, 1), unnest(l)
       from (select s.probe, f.rel, string_split(s.stderr, chr(10)) as l
             from spawns s join source_files f on f.probe = s.probe and f.session_id = s.session_id and f.kind = 'tool_use_err')
     )
     select probe, rel, any_value(file) as file, min(rec) as rec, arg_min(path, rec) as path, count(*) as n
     from (select *, regexp_extract(text, $re, 1, 'i') as path from lines)
     where path <> ''
     group by probe, rel
     order by probe, rel`,
    { re: HOME_PATH_RE2 },
    'checking for home-directory paths',
  );
  return res.rows.map((r) => {
    const line = r.file === null ? Number(r.rec) : physicalLine(String(r.file), Number(r.rec));
    const more = Number(r.n) > 1 ? ` (and ${Number(r.n) - 1} more line(s))` : '';
    // DuckDB found it; the same matcher in JavaScript trims what RE2 cannot leave out (leaks.ts).
    const path = firstHomePath(String(r.path))?.text ?? String(r.path);
    return `${r.probe}/${r.rel}:${line}: holds the home-directory path ${path}${more} (committed records must not leak the measuring machine: write such paths with $HOME)`;
  });
}

/**
 * What must be unique, and the records that hold it: `scope` is the probe for most, the file for a
 * tool call's id (a spawn's calls), and `key` what repeats; `shown`, the key as a message writes it.
 */
const UNIQUE: { label: string; within: string; source: string }[] = [
  {
    label: 'session_id',
    within: 'a probe',
    source: `select probe as scope, file, rec, json ->> 'session_id' as key from records where kind = 'results'`,
  },
  { label: 'seq', within: 'a probe', source: `select probe, file, rec, json ->> 'seq' as key from records where kind = 'results'` },
  {
    label: 'registered arm',
    within: 'a probe',
    source: `select probe, file, rec, json ->> 'arm' as key from records where kind = 'registration' and (json ->> 'kind') = 'arm'`,
  },
  {
    label: 'addendum number',
    within: 'a probe',
    source: `select probe, file, rec, json ->> 'n' as key from records where kind = 'registration' and (json ->> 'kind') = 'addendum'`,
  },
  {
    label: 'budget record',
    within: 'a probe',
    source: `select probe, file, rec, 'budget' as key from records where kind = 'registration' and (json ->> 'kind') = 'budget'`,
  },
  // A repeated line would count the call twice.
  {
    label: 'tool_use id',
    within: "a spawn's tool_use file",
    source: `select file, file, rec, json ->> 'id' as key from records where kind = 'tool_use'`,
  },
  {
    label: '(session_id, tool_use_id)',
    within: 'skill_results.jsonl',
    source: `select probe, file, rec, format('({}, {})', to_json(json ->> 'session_id'), to_json(json ->> 'tool_use_id')) as key from records where kind = 'skill_results'`,
  },
];

/** Throw for the first record, by file and line, whose key repeats one before it in its scope. */
async function checkDuplicates(db: Database): Promise<void> {
  const union = UNIQUE.map((u, i) => `select ${i} as what, * from (${u.source})`).join(' union all ');
  const res = await db.query(
    `select what, file, rec, key, first_file, first_rec from (
       select what, file, rec, key, row_number() over w as k, first_value(file) over w as first_file, first_value(rec) over w as first_rec
       from (${union}) window w as (partition by what, scope, key order by file, rec))
     where k = 2 order by file, rec, what limit 1`,
    undefined,
    'checking unique keys',
  );
  const d = res.rows[0];
  if (!d) return;
  const { label, within } = UNIQUE[Number(d.what)]!;
  const firstLine = physicalLine(String(d.first_file), Number(d.first_rec));
  const first = d.first_file === d.file ? `line ${firstLine}` : `${displayPath(String(d.first_file))}:${firstLine}`;
  const key = label.startsWith('(') ? String(d.key) : JSON.stringify(String(d.key));
  throw recordError(
    String(d.file),
    Number(d.rec),
    `duplicate ${label} ${key} (first at ${first})`,
    `each ${label} must be unique within ${within}`,
  );
}
