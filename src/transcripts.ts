/**
 * Loads Claude Code session transcripts (shared/reference/claude-code-formats.md) into DuckDB:
 * every `*.jsonl` under a directory, recursively, so `<sid>.jsonl`, `<sid>/subagents/agent-*.jsonl`
 * (2.1.x) and `agent-*.jsonl` beside the session file (2.0.x) all load. DuckDB parses each line
 * once, into typed fields (lineFields); nothing else on a line is kept.
 *
 * Tables (the full level):
 *   transcript_files        one row per file: dir, file (relative to dir), lines
 *   transcript_lines        one row per non-blank line, every record type kept (unknown ones too)
 *   transcript_sessions     one row per session: first timestamp, versions, models, lines, files
 *   transcript_tool_uses    one row per tool_use block of an `assistant` line, de-duplicated by id
 *                           within a session, in transcript order; `progress` lines never count
 *   transcript_tool_results the tool_result answering each Skill call (first answer per id); results
 *                           of other tools are never read
 *
 * The census level (for `census`, which reads only transcript_sessions and the session, name,
 * skill, skill order, path and command of transcript_tool_uses) makes those two in one aggregating pass, with no
 * per-line table and no record numbers. When a corpus needs record numbers to be decided, or has a
 * line that DuckDB could not read, it hands over to the full level, which is exact and names any
 * malformed line's file:line. Tests hold the two levels' census output equal.
 *
 * A line's session is its `sessionId`; a line without one (summary, file-history-snapshot) takes
 * the first `sessionId` of its file, or else the file's name.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { Database, pathList, sqlString } from './db.js';
import { InputError } from './errors.js';
import { MAX_OBJECT, readJsonl } from './jsonl.js';
import { displayPath, listFiles, walkFiles } from './paths.js';
import { recordError } from './schema.js';

/**
 * Of a tool call's input, the keys read: the two that can name a skill (Skill {skill} or
 * {command}, SlashCommand {command}), and the file a writing tool names (file_path, notebook_path),
 * for the path and command columns (queries/forgeable.sql). A Write's content is never read.
 */
const SKILL_ARGS = { skill: 'VARCHAR', command: 'VARCHAR', file_path: 'VARCHAR', notebook_path: 'VARCHAR' };

/** The tools that write the file their input names: a forged marker's means (queries/forgeable.sql). */
const WRITE_TOOLS = `('Write', 'Edit', 'MultiEdit', 'NotebookEdit')`;

/**
 * transcript_tool_uses' path and command, from a call's name and input args: the file a writing
 * tool names, and a Bash call's command line; NULL for every other call.
 */
const PATH_OF_CALL = (name: string, args: string) => `case when ${name} in ${WRITE_TOOLS} then coalesce(${args}.file_path, ${args}.notebook_path) end`;
const COMMAND_OF_CALL = (name: string, args: string) => `case when ${name} = 'Bash' then ${args}.command end`;

/**
 * What every line is parsed for, in one typed parse: its top-level fields and, of
 * `message.content`, each block's type, id, name and input (`input` as given: the whole JSON for
 * the full level, only SKILL_ARGS for the census). Nothing else on the line is kept, so a large
 * tool_result body is read past, never copied. A field of another type than this gives NULL (a
 * string `content`, for one), as DuckDB's typed JSON transform does. `timestamp` and `version` are
 * read as JSON, because DuckDB would write a number or an object as a string: one that is not a
 * string is an error (MISTYPED).
 */
const lineFields = (input: Shape) => ({
  type: 'VARCHAR',
  subtype: 'VARCHAR',
  sessionId: 'VARCHAR',
  uuid: 'VARCHAR',
  timestamp: 'JSON',
  version: 'JSON',
  isSidechain: 'BOOLEAN',
  agentId: 'VARCHAR',
  message: { model: 'VARCHAR', content: [{ type: 'VARCHAR', id: 'VARCHAR', name: 'VARCHAR', input }] },
});

type Shape = string | Shape[] | { [key: string]: Shape };

/** The DuckDB type of a from_json shape: what read_json's `columns` takes. */
function duckType(shape: Shape): string {
  if (typeof shape === 'string') return shape;
  if (Array.isArray(shape)) return `${duckType(shape[0]!)}[]`;
  return `STRUCT(${Object.entries(shape).map(([k, v]) => `"${k}" ${duckType(v)}`).join(', ')})`;
}

/**
 * The census level's fields, as read_json's `columns` map: only what transcript_sessions and the
 * census's columns of transcript_tool_uses need, with `input` read for SKILL_ARGS alone (without
 * the file keys when the calls' inputs are not wanted: LoadOptions.inputs).
 */
function censusColumns(inputs: boolean): string {
  const { type, sessionId, timestamp, version, message } = lineFields(inputs ? SKILL_ARGS : { skill: 'VARCHAR', command: 'VARCHAR' });
  const fields = { type, sessionId, timestamp, version, message };
  return `{${Object.entries(fields).map(([k, v]) => `${k}: ${sqlString(duckType(v))}`).join(', ')}}`;
}

const RESULTS_SCHEMA = JSON.stringify({
  type: 'VARCHAR',
  sessionId: 'VARCHAR',
  timestamp: 'VARCHAR',
  message: { content: [{ type: 'VARCHAR', tool_use_id: 'VARCHAR', is_error: 'BOOLEAN', content: 'JSON' }] },
  toolUseResult: 'JSON',
});

/**
 * The distinct values of `expr` over a group's rows where `where` holds, as a list (sorted later):
 * the keys of a histogram, as list(distinct …) would cost a hash table of its own per aggregate
 * (~0.1 s of CPU on 500 MB of transcripts).
 */
const DISTINCT_KEYS = (expr: string, where: string) => `map_keys(histogram(${expr}) filter (where ${where}))`;

/** TRUE when a line's `timestamp` or `version` (JSON) is there and not a string (a string or null is fine). */
const MISTYPED = (timestamp: string, version: string) =>
  `coalesce(json_type(${timestamp}), 'NULL') not in ('VARCHAR', 'NULL') or coalesce(json_type(${version}), 'NULL') not in ('VARCHAR', 'NULL')`;

/** The tools whose calls name a skill, as a SQL list. */
const SKILL_TOOLS = `('Skill', 'SlashCommand')`;

/**
 * The skill a tool_use block names, from its name and its input's SKILL_ARGS: Skill {skill} or
 * {command}, SlashCommand {command:"/name args"}.
 */
const SKILL_OF_CALL = (name: string, skill: string, command: string) => `case
    when ${name} = 'Skill' then coalesce(${skill}, ${command})
    when ${name} = 'SlashCommand' then nullif(split_part(ltrim(${command}, '/'), ' ', 1), '')
  end`;

/** The text of a tool_result block's content: the string, or its text items joined by newlines. */
const RESULT_TEXT = `case json_type(b.content)
    when 'VARCHAR' then b.content ->> '$'
    when 'ARRAY' then array_to_string(
      list_transform(list_filter(from_json(b.content, '["JSON"]'), x -> (x ->> 'type') = 'text'), x -> (x ->> 'text')), chr(10))
  end`;

/**
 * A line's columns in transcript_lines (full level), from its fields parsed as `t`. `calls` holds
 * the tool_use blocks of an `assistant` line, in content order: the typed parse decides, so
 * "tool_use" inside a string counts nothing, and `progress` lines never count.
 */
const LINE_COLUMNS = `
  t.type, t.subtype, t.sessionId as session_id, t.uuid, t.timestamp ->> '$' as timestamp, t.version ->> '$' as version,
  ${MISTYPED('t.timestamp', 't.version')} as mistyped,
  coalesce(t.isSidechain, false) as is_sidechain, t.agentId as agent_id, t.message.model as model,
  case when t.type = 'assistant' then list_filter(t.message.content, b -> b.type = 'tool_use') end as calls`;

const EMPTY_TABLES = `
  create or replace table transcript_lines (rec BIGINT, file VARCHAR, type VARCHAR, subtype VARCHAR, session_id VARCHAR,
    uuid VARCHAR, timestamp VARCHAR, version VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, model VARCHAR);
  create or replace table transcript_sessions (session_id VARCHAR, first_timestamp VARCHAR, versions VARCHAR[],
    models VARCHAR[], lines BIGINT, files VARCHAR[]);
  create or replace table transcript_tool_uses (session_id VARCHAR, ordinal BIGINT, tool_use_id VARCHAR, name VARCHAR,
    input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, timestamp VARCHAR, version VARCHAR,
    model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT, path VARCHAR, command VARCHAR);
  create or replace table transcript_tool_results (session_id VARCHAR, tool_use_id VARCHAR, is_error BOOLEAN,
    result VARCHAR, file VARCHAR, rec BIGINT);
  create or replace table transcript_files (dir VARCHAR, file VARCHAR, lines BIGINT, abs VARCHAR);`;

const isTranscript = (name: string) => name.endsWith('.jsonl');

/** Every `*.jsonl` file under `dir`, recursively, sorted; or `dir` alone when it is one such file. */
export function listTranscriptFiles(dir: string): string[] {
  const one = singleTranscript(resolve(dir));
  return one ? [one.abs] : listFiles(dir, isTranscript);
}

/** `--transcripts FILE.jsonl`: that file alone, as if its folder held nothing else; else null. */
function singleTranscript(abs: string): TranscriptFile | null {
  return isTranscript(abs) && existsSync(abs) && statSync(abs).isFile() ? { abs, dir: dirname(abs), rel: basename(abs) } : null;
}

export interface Progress {
  files: number;
  bytes: number;
  /** Estimated share of the scan done, 0 to 1. */
  fraction: number;
  /** The second scan of the same files: the census level handed the load over to the full level. */
  again?: boolean;
}

export interface LoadOptions {
  /** 'census' or 'full' (the default): see the top of this file. */
  level?: 'census' | 'full';
  /**
   * The census level reads the path and command of writing and Bash calls (transcript_tool_uses'
   * path and command, which queries/forgeable.sql reads) unless this is false, when they are NULL:
   * a census of sessions alone has no marker to check. The full level always reads them.
   */
  inputs?: boolean;
  onProgress?: (p: Progress) => void;
}

/** A transcript file: its absolute path, its transcripts folder, and its path relative to that. */
export interface TranscriptFile {
  abs: string;
  dir: string;
  rel: string;
}

/**
 * Every transcript file under each directory, recursively, sorted. Throws InputError when a
 * directory does not exist. Reads no file: loadTranscripts does.
 */
export function findTranscripts(dirs: string[]): TranscriptFile[] {
  const files: TranscriptFile[] = [];
  for (const d of dirs) {
    const dir = resolve(d);
    const one = singleTranscript(dir);
    if (one) {
      files.push(one);
      continue;
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new InputError(
        `${displayPath(dir)}: ${existsSync(dir) ? 'neither a folder nor a .jsonl file' : 'no such transcripts directory'}`,
        'pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>',
      );
    }
    for (const f of walkFiles(dir, isTranscript, { keptNamesAreFiles: true })) files.push({ abs: f.path, dir, rel: f.rel });
  }
  return files;
}

/**
 * Load transcript files (findTranscripts). Throws InputError naming file:line when a line is
 * malformed.
 */
export async function loadTranscripts(db: Database, files: TranscriptFile[], options: LoadOptions = {}): Promise<void> {
  if (files.length === 0) {
    // No transcripts: the same tables, empty, without a scan (a test holds the two shapes equal).
    await db.exec(EMPTY_TABLES, undefined, 'creating the transcript tables');
    return;
  }
  const totalBytes = options.onProgress ? files.reduce((n, f) => n + statSync(f.abs).size, 0) : 0;
  const progress = (again: boolean) =>
    options.onProgress && ((fraction: number) => options.onProgress!({ files: files.length, bytes: totalBytes, fraction, again }));
  const census = options.level === 'census';
  if (census && (await censusScan(db, files, options.inputs ?? true, progress(false)))) return;
  await fullScan(db, files, progress(census));
  await loadSkillResults(db);
}

/** A SQL expression mapping absolute path `col` to its path relative to its transcripts folder. */
function relativeTo(files: TranscriptFile[], col: string): string {
  const roots = [...new Set(files.map((f) => f.dir))].sort((a, b) => b.length - a.length);
  return `case ${roots.map((r) => `when starts_with(${col}, ${sqlString(r + '/')}) then substr(${col}, ${r.length + 2})`).join(' ')} else ${col} end`;
}

/**
 * The census level: one pass that parses each line once (read_json with typed columns) and
 * aggregates as it goes, per file and sessionId, so no per-line table is built. An assistant line
 * holds one content block (claude-code-formats.md §4: every real sample); a line of several
 * hands over to the full scan, like a malformed one.
 * Malformed lines are not reported here: with ignore_errors, DuckDB gives them a row without
 * `type`, and any such row (or any error) sends the load to the full scan, which names the line,
 * or, for a valid line with no `type`, loads it exactly. Returns false when the full scan is needed.
 */
async function censusScan(db: Database, files: TranscriptFile[], inputs: boolean, onProgress?: (fraction: number) => void): Promise<boolean> {
  const call = `type = 'assistant' and len(message.content) = 1 and message.content[1].type = 'tool_use'`;
  const callInputs = inputs
    ? `, 'path': ${PATH_OF_CALL('message.content[1].name', 'message.content[1].input')},
         'command': ${COMMAND_OF_CALL('message.content[1].name', 'message.content[1].input')}`
    : '';
  try {
    // Every call keeps only its id and name (and, when inputs are wanted, the path or command of a
    // writing or Bash call); calls that can name a skill also keep what orders and names it. The
    // fewer fields a list collects per line, the faster the pass.
    await db.exec(
      `create or replace table census_scan as
       select ${relativeTo(files, 'abs')} as file, * exclude (abs) from (
       select filename as abs, sessionId as session_id,
              count(*) as lines,
              count(*) - count(type) + count(*) filter (where ${MISTYPED('timestamp', 'version')}) as untyped,
              count(*) filter (where type = 'assistant' and len(message.content) > 1) as many_block_lines,
              min(timestamp ->> '$') as first_timestamp,
              ${DISTINCT_KEYS("version ->> '$'", "(version ->> '$') is not null")} as versions,
              ${DISTINCT_KEYS('message.model', "type = 'assistant' and message.model is not null")} as models,
              list({'id': message.content[1].id, 'name': message.content[1].name${callInputs}}) filter (where ${call}) as calls,
              list({'timestamp': timestamp ->> '$', 'id': message.content[1].id, 'name': message.content[1].name,
                    'skill': message.content[1].input.skill, 'command': message.content[1].input.command})
                filter (where ${call} and message.content[1].name in ${SKILL_TOOLS}) as skill_calls
       from read_json($files, format = 'newline_delimited', records = true,
                      columns = ${censusColumns(inputs)}, ignore_errors = true, filename = true, hive_partitioning = false,
                      maximum_object_size = ${MAX_OBJECT})
       group by all)`,
      { files: pathList(files.map((f) => f.abs)) },
      'reading the transcripts',
      onProgress,
    );
  } catch {
    return false; // a line DuckDB cannot skip: the full scan reports it
  }
  // census_groups gives each group its session once (file_sessions for lines without one), for
  // both kinds of call. The census tables are plain (not temporary) tables, so that a second
  // connection sees them.
  await db.exec(
    `create or replace view scan_groups as
     select file, session_id, lines, null::BIGINT as first_rec, first_timestamp, versions, models
     from census_scan;
     ${FILE_SESSIONS}
     create or replace view census_groups as
     select coalesce(k.session_id, fs.session_id) as session_id, k.file, k.calls, k.skill_calls
     from census_scan as k join file_sessions as fs using (file);`,
    undefined,
    'reading the transcripts',
  );
  // Copies of a call share its id. Only the calls whose (session, id) occurs more than once need
  // grouping: census_repeats finds them by a hash of the two (a collision only groups a few more
  // calls), which costs a fraction of grouping every call by its two strings. Copies must agree,
  // or the check below sends the load to the full scan. Only skill calls get an ordinal (their
  // order among themselves, which is all the census reads). The skill calls and the sessions are
  // made on a second connection meanwhile (transcript_sessions is made over if the full scan runs).
  await db.inParallel(
    (here) =>
      here.exec(
        `-- One row per call, with the hash of its (session, id).
         create or replace view census_call_rows as
         select session_id, c.id, c.name, ${inputs ? 'c.path, c.command' : 'null::VARCHAR as path, null::VARCHAR as command'}, hash(session_id, c.id) as h
         from (select session_id, unnest(calls) as c from census_groups);
         create or replace table census_repeats as
         select h from census_call_rows group by h having count(*) > 1;
         create or replace table census_repeated as
         select session_id, id, min(name) as name, min(path) as path, min(command) as command,
                min(name) <> max(name) or count(name) not in (0, count(*)) or id is null
                  or min(path) <> max(path) or min(command) <> max(command) as undecided
         from census_call_rows where h in (select h from census_repeats) group by session_id, id;
         -- Every call once: those that occur once as they are, and the repeated ones grouped.
         create or replace view census_calls as
         select session_id, id, name, path, command from census_call_rows where h not in (select h from census_repeats)
         union all
         select session_id, id, name, path, command from census_repeated;`,
        undefined,
        'reading the transcripts',
      ),
    async (there) => {
      await there.exec(
        `create or replace table census_skills as
         with calls as (
           select session_id, file, unnest(skill_calls, recursive := true) from census_groups
         ), named as (
           select session_id, file, timestamp, id, name, ${SKILL_OF_CALL('name', 'skill', 'command')} as skill from calls
         ), grouped as (
           select session_id, id, min(name) as name, min(skill) as skill,
                  min(skill) <> max(skill) or count(skill) not in (0, count(*)) as conflicting,
                  min({'untimed': timestamp is null, 'timestamp': timestamp, 'file': file}) as first
           from named group by session_id, id
         )
         select *, case when skill is not null
                        then row_number() over (partition by session_id, skill is null order by first, id) end as ordinal
         from grouped;`,
        undefined,
        'reading the transcripts',
      );
      await buildSessions(there);
    },
  );
  // Besides lines DuckDB could not type and assistant lines of several blocks, what the census
  // reads would not be decided without record numbers: a line without sessionId in a file of
  // several sessions; copies of one call id that differ in name or skill (or calls without id,
  // which are each a call of their own); or two skill calls first made at the same timestamp in
  // the same file of a session.
  const undecided = await db.query(
    `select (select sum(untyped) + sum(many_block_lines) from census_scan) > 0
         or exists (select 1 from file_sessions where ambiguous)
         or exists (select 1 from census_repeated where undecided)
         or exists (select 1 from census_skills where conflicting)
         or exists (select 1 from census_skills where skill is not null
                    group by session_id, first.timestamp, first.file having count(*) > 1) as undecided`,
  );
  const decided = !undecided.rows[0]?.undecided;
  if (!decided) {
    await db.exec(
      `drop view census_calls; drop table census_repeated; drop table census_repeats; drop view census_call_rows;
       drop table census_skills; drop view census_groups; drop view scan_groups; drop table census_scan; drop table file_sessions;`,
    );
    return false;
  }
  // census_calls reads census_call_rows, so census_groups, census_scan and file_sessions, when a query runs.
  await db.exec(
    `-- What census.sql, sessions.sql and forgeable.sql read: session_id, name, skill, path, command,
     -- and ordinal (skill calls only, in the order record numbers would give). The rest is NULL, but for the timestamp
     -- and file of a skill call's first copy. census_skills holds exactly the calls of
     -- census_calls named Skill or SlashCommand (copies that differ in name were sent to the
     -- full level above), so the two add up with no join.
     create or replace temp view transcript_tool_uses as
     select session_id, null::BIGINT as ordinal, id as tool_use_id, name, null::VARCHAR[] as input_keys, null::VARCHAR as skill,
            null::VARCHAR as agent_id, null::BOOLEAN as is_sidechain, null::VARCHAR as timestamp, null::VARCHAR as version,
            null::VARCHAR as model, null::VARCHAR as file, null::BIGINT as rec, null::BIGINT as block, path, command
     from census_calls where name is null or name not in ${SKILL_TOOLS}
     union all
     select session_id, ordinal, id, name, null, skill, null, null, first.timestamp, null, null, first.file, null, null, null, null
     from census_skills;
     drop view scan_groups;`,
    undefined,
    'building the transcript tables',
  );
  return true;
}

/**
 * The full level: every line into transcript_lines, with its record number, through jsonl.ts
 * (which names any malformed line's file:line), then the tables the census level builds, from it.
 */
async function fullScan(db: Database, files: TranscriptFile[], onProgress?: (fraction: number) => void): Promise<void> {
  await db.exec(`create or replace table transcript_files (abs VARCHAR, dir VARCHAR, file VARCHAR)`);
  await db.exec(
    `insert into transcript_files values ${files.map((f) => `(${sqlString(f.abs)}, ${sqlString(f.dir)}, ${sqlString(f.rel)})`).join(', ')}`,
  );
  // The scan builds transcript_lines directly, with each line's file relative to its folder
  // (computed in the projection, so no join), and its tool calls as a list column; the helper
  // columns are dropped afterwards.
  await readJsonl(db, 'transcript_lines', files.map((f) => f.abs), {
    columns: `${relativeTo(files, 'file')} as rel, starts_with(json::VARCHAR, '{') as is_object, ${LINE_COLUMNS}`,
    parse: JSON.stringify(lineFields('JSON')),
    persistent: true,
    onProgress,
  });
  await rejectNonObjects(db);
  await rejectMistyped(db);
  await db.exec(
    `create or replace temp table scan_groups as
     select rel as file, session_id, count(*) as lines, min(rec) as first_rec, min(timestamp) as first_timestamp,
            ${DISTINCT_KEYS('version', 'version is not null')} as versions,
            ${DISTINCT_KEYS('model', "type = 'assistant' and model is not null")} as models
     from transcript_lines group by all;
     ${FILE_SESSIONS}
     create or replace temp table scan_calls as
     with blocks as (
       select rel as file, session_id, rec, timestamp, version, model, is_sidechain, agent_id,
              unnest(calls) as b, unnest(generate_series(1, len(calls))) as block
       from transcript_lines where len(calls) > 0
     ), parsed as (
       select *, from_json(b.input, ${sqlString(JSON.stringify(SKILL_ARGS))}) as args from blocks
     )
     select file, session_id, rec, block, timestamp, version, model, is_sidechain, agent_id, b.id, b.name,
            ${SKILL_OF_CALL('b.name', 'args.skill', 'args.command')} as skill,
            list_sort(json_keys(b.input)) as input_keys,
            ${PATH_OF_CALL('b.name', 'args')} as path, ${COMMAND_OF_CALL('b.name', 'args')} as command
     from parsed;`,
    undefined,
    'building the transcript tables',
  );
  await buildSessionTables(db);
  await db.exec(
    `update transcript_lines as l set session_id = fs.session_id
     from file_sessions as fs
     where l.session_id is null and fs.file = l.rel;
     create or replace table transcript_files as
     select f.dir, f.file, count(l.rec) as lines, f.abs
     from transcript_files f left join transcript_lines l on l.rel = f.file group by all;
     alter table transcript_lines drop column calls;
     alter table transcript_lines drop column is_object;
     alter table transcript_lines drop column mistyped;
     alter table transcript_lines drop column ok;
     alter table transcript_lines drop column file;
     alter table transcript_lines rename column rel to file;
     drop table scan_groups; drop table scan_calls; drop table file_sessions;`,
    undefined,
    'building the transcript tables',
  );
}

/**
 * file_sessions, from scan_groups: per file, the session of its lines that carry no sessionId
 * (summary, file-history-snapshot): the first sessionId of the file, or else the file's name.
 * `ambiguous` when that takes record numbers (several sessionIds and lines without one), which
 * only the full level has.
 */
const FILE_SESSIONS = `
  create or replace table file_sessions as
  with sessions as (
    -- One sessionId or several: min and max tell, where count(distinct …) would build a hash table.
    select file, min(session_id) as first_id, coalesce(min(session_id) <> max(session_id), false) as several,
           arg_min(session_id, first_rec) filter (where session_id is not null) as earliest,
           count(*) filter (where session_id is null) > 0 as unnamed_lines
    from scan_groups group by file
  )
  select file,
         coalesce(case when several then earliest else first_id end, regexp_replace(file, '^.*/|\\.jsonl$', '', 'g')) as session_id,
         several and unnamed_lines as ambiguous
  from sessions;`;

/**
 * The full level's transcript_sessions and transcript_tool_uses, from scan_groups (one row per file
 * and sessionId) and scan_calls (one row per tool_use block). The census level makes
 * transcript_sessions the same way (buildSessions) and its own transcript_tool_uses (censusScan).
 */
async function buildSessionTables(db: Database): Promise<void> {
  await buildSessions(db);
  await db.exec(
    `create or replace table transcript_tool_uses as
     with calls as (
       select coalesce(c.session_id, fs.session_id) as session_id, c.* exclude (session_id)
       from scan_calls as c join file_sessions as fs using (file)
     ), ranked as (
       -- Copies of a call share its id; a block without an id is a call of its own.
       select *, case when id is null then 1
                      else row_number() over (partition by session_id, id order by timestamp nulls last, file, rec, block) end as k
       from calls
     )
     select session_id,
            row_number() over (partition by session_id order by timestamp nulls last, file, rec, block, id) as ordinal,
            id as tool_use_id, name, input_keys, skill, case when is_sidechain then agent_id end as agent_id, is_sidechain,
            timestamp, version, model, file, rec, block, path, command
     from ranked where k = 1`,
    undefined,
    'building the transcript tables',
  );
}

/** transcript_sessions, from scan_groups: the same for both levels. */
async function buildSessions(db: Database): Promise<void> {
  await db.exec(
    `create or replace table transcript_sessions as
     select coalesce(g.session_id, fs.session_id) as session_id,
            min(g.first_timestamp) as first_timestamp,
            coalesce(list_sort(list_distinct(flatten(list(g.versions) filter (where g.versions is not null)))), []) as versions,
            coalesce(list_sort(list_distinct(flatten(list(g.models) filter (where g.models is not null)))), []) as models,
            sum(g.lines)::BIGINT as lines,
            list_sort(list_distinct(list(g.file))) as files
     from scan_groups as g join file_sessions as fs using (file)
     group by all`,
    undefined,
    'building the transcript tables',
  );
}

/**
 * The tool_result answering each Skill call. Results can be large (a Read of a big file), so they
 * are parsed only in the files that made a Skill call, and only their text for the calls kept.
 */
async function loadSkillResults(db: Database): Promise<void> {
  const files = (
    await db.query(
      `select distinct f.abs from transcript_files f
       join transcript_lines l on l.file = f.file
       where l.session_id in (select session_id from transcript_tool_uses where skill is not null)
       order by f.abs`,
    )
  ).rows.map((r) => String(r.abs));
  // The first scan validated every line of these files, so this one streams them with no error
  // handling, and keeps only the blocks that answer a Skill call before any text is extracted.
  const scan = files.length
    ? `select filename as abs, ordinality as o, from_json(json, ${sqlString(RESULTS_SCHEMA)}) as t
       from read_ndjson_objects($files, filename = true, maximum_object_size = ${MAX_OBJECT}) with ordinality
       where contains(json::VARCHAR, '"tool_result"')`
    : `select null::VARCHAR as abs, null::BIGINT as o, from_json('{}', ${sqlString(RESULTS_SCHEMA)}) as t where false`;
  await db.exec(
    `create or replace table transcript_tool_results as
     with firsts as (
       select filename as abs, min(ordinality) as first
       from read_ndjson_objects($files, filename = true, maximum_object_size = ${MAX_OBJECT}) with ordinality
       where ${files.length ? 'true' : 'false'}
       group by filename
     ), scanned as (${scan}
     ), blocks as (
       select s.abs, s.o - x.first + 1 as rec, s.t.sessionId as session_id, s.t.timestamp as timestamp,
              json_type(s.t.toolUseResult) = 'VARCHAR' and starts_with(s.t.toolUseResult ->> '$', 'Error:') as result_says_error,
              unnest(list_filter(s.t.message.content, b -> b.type = 'tool_result')) as b
       from scanned s join firsts x using (abs)
       where s.t.type = 'user'
     ), kept as (
       select f.file, k.rec, coalesce(k.session_id, l.session_id) as session_id, k.timestamp, k.result_says_error, k.b
       from blocks k
       join transcript_files f using (abs)
       left join transcript_lines l on l.file = f.file and l.rec = k.rec
       where k.b.tool_use_id in (select tool_use_id from transcript_tool_uses where skill is not null)
     ), ranked as (
       select *, row_number() over (partition by session_id, b.tool_use_id order by timestamp nulls last, file, rec) as k
       from kept
     )
     select session_id, b.tool_use_id,
            coalesce(b.is_error, false) or coalesce(result_says_error, false) or coalesce(${RESULT_TEXT} like '%<tool_use_error>%', false) as is_error,
            ${RESULT_TEXT} as result, file, rec
     from ranked where k = 1`,
    { files: pathList(files.length ? files : ['']) },
    'building the transcript results',
  );
}

/** A transcript line must be a JSON object (a record); any type of record is kept. */
async function rejectNonObjects(db: Database): Promise<void> {
  const res = await db.query(`select file, rec from transcript_lines where not is_object order by file, rec limit 1`);
  const bad = res.rows[0];
  if (bad) {
    // Only on this error path is the line's kind looked at.
    const file = String(bad.file);
    const kind = (
      await db.query(`select json_type(json) as k from read_ndjson_objects($files) limit 1 offset ${Number(bad.rec) - 1}`, {
        files: pathList([file, file]),
      })
    ).rows[0]?.k;
    const kinds: Record<string, string> = { VARCHAR: 'a string', ARRAY: 'an array', BOOLEAN: 'a boolean', NULL: 'null', DOUBLE: 'a number', UBIGINT: 'an integer', BIGINT: 'an integer' };
    const got = kinds[String(kind)] ?? String(kind).toLowerCase();
    throw recordError(file, Number(bad.rec), `transcript line: not a JSON object (got ${got})`, 'every transcript line is one JSON object');
  }
}

/** A transcript line's `timestamp` and `version` are strings: anything else would load as text. */
async function rejectMistyped(db: Database): Promise<void> {
  const res = await db.query(`select file, rec from transcript_lines where mistyped order by file, rec limit 1`);
  const bad = res.rows[0];
  if (!bad) return;
  // Only on this error path is the line read again, to say what it holds.
  const file = String(bad.file);
  const got = (
    await db.query(
      `select x.k as k, left(x.v::VARCHAR, 60) as v from (
         select unnest([{'k': 'timestamp', 'v': json -> '$.timestamp'}, {'k': 'version', 'v': json -> '$.version'}]) as x
         from (select json from read_ndjson_objects($files) limit 1 offset ${Number(bad.rec) - 1}))
       where coalesce(json_type(x.v), 'NULL') not in ('VARCHAR', 'NULL') limit 1`,
      { files: pathList([file, file]) },
    )
  ).rows[0];
  throw recordError(file, Number(bad.rec), `transcript line: "${got?.k}" must be a string, got ${got?.v}`, 'a transcript line\'s timestamp and version are strings');
}
