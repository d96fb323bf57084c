/**
 * Loads Claude Code session transcripts (shared/reference/claude-code-formats.md) into DuckDB:
 * every `*.jsonl` under a directory, recursively, so `<sid>.jsonl`, `<sid>/subagents/agent-*.jsonl`
 * (2.1.x) and `agent-*.jsonl` beside the session file (2.0.x) all load. DuckDB parses each line
 * once with a typed `from_json`; only the fields the tables need are kept.
 *
 * Tables:
 *   transcript_files        one row per file: dir, file (relative to dir), lines
 *   transcript_lines        one row per non-blank line, every record type kept (unknown ones too)
 *   transcript_tool_uses    one row per tool_use block of an `assistant` line, de-duplicated by id
 *                           within a session, in transcript order; `progress` lines never count
 *   transcript_tool_results the tool_result answering each Skill call (first answer per id); results
 *                           of other tools are never read
 *
 * A line's session is its `sessionId`; a line without one (summary, file-history-snapshot) takes
 * the first `sessionId` of its file, or else the file's name.
 */
import { existsSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { Database, sqlString } from './db.js';
import { InputError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { displayPath, listFiles } from './paths.js';
import { recordError } from './schema.js';

/**
 * What every line is parsed for: its top-level fields, typed; everything else on the line,
 * `message.content` included, is skipped. Lines that can hold a tool call get a second, fuller
 * parse (CALLS_SCHEMA); tool results are parsed only for Skill calls, in a second scan (below).
 */
const LINE_SCHEMA = JSON.stringify({
  type: 'VARCHAR',
  subtype: 'VARCHAR',
  sessionId: 'VARCHAR',
  uuid: 'VARCHAR',
  timestamp: 'VARCHAR',
  version: 'VARCHAR',
  isSidechain: 'BOOLEAN',
  agentId: 'VARCHAR',
  message: { model: 'VARCHAR' },
});

const CALLS_SCHEMA = JSON.stringify({
  message: { content: [{ type: 'VARCHAR', id: 'VARCHAR', name: 'VARCHAR', input: 'JSON' }] },
});

const RESULTS_SCHEMA = JSON.stringify({
  type: 'VARCHAR',
  sessionId: 'VARCHAR',
  timestamp: 'VARCHAR',
  message: { content: [{ type: 'VARCHAR', tool_use_id: 'VARCHAR', is_error: 'BOOLEAN', content: 'JSON' }] },
  toolUseResult: 'JSON',
});

/** The skill a tool_use block `b` names: Skill {skill} or {command}, SlashCommand {command:"/name args"}. */
export const SKILL_OF_BLOCK = `case
    when b.name = 'Skill' then coalesce(b.input ->> 'skill', b.input ->> 'command')
    when b.name = 'SlashCommand' then nullif(split_part(ltrim(b.input ->> 'command', '/'), ' ', 1), '')
  end`;

/** The text of a tool_result block's content: the string, or its text items joined by newlines. */
const RESULT_TEXT = `case json_type(b.content)
    when 'VARCHAR' then b.content ->> '$'
    when 'ARRAY' then array_to_string(
      list_transform(list_filter(from_json(b.content, '["JSON"]'), x -> (x ->> 'type') = 'text'), x -> (x ->> 'text')), chr(10))
  end`;

/**
 * Columns computed from each line during the scan (jsonl.ts). A tool call can only be on a line
 * whose text holds "tool_use" (quotes included; "tool_use_id" does not match), so only those lines
 * are parsed for calls; the typed parse then decides, so "tool_use" inside a string counts nothing.
 */
const SCAN_COLUMNS = `
  t.type, t.subtype, t.sessionId as session_id, t.uuid, t.timestamp, t.version,
  coalesce(t.isSidechain, false) as is_sidechain, t.agentId as agent_id, t.message.model as model,
  starts_with(json::VARCHAR, '{') as is_object,
  case when t.type = 'assistant' and contains(json::VARCHAR, '"tool_use"') then
    list_transform(
      list_filter(from_json(json, '${CALLS_SCHEMA}').message.content, b -> b.type = 'tool_use'),
      b -> {'id': b.id, 'name': b.name, 'input_keys': list_sort(json_keys(b.input)), 'skill': ${SKILL_OF_BLOCK}})
  end as tool_uses`;

const EMPTY_TABLES = `
  create or replace table transcript_lines (rec BIGINT, file VARCHAR, type VARCHAR, subtype VARCHAR, session_id VARCHAR,
    uuid VARCHAR, timestamp VARCHAR, version VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, model VARCHAR);
  create or replace table transcript_tool_uses (session_id VARCHAR, ordinal BIGINT, tool_use_id VARCHAR, name VARCHAR,
    input_keys VARCHAR[], skill VARCHAR, agent_id VARCHAR, is_sidechain BOOLEAN, timestamp VARCHAR, version VARCHAR,
    model VARCHAR, file VARCHAR, rec BIGINT, block BIGINT);
  create or replace table transcript_tool_results (session_id VARCHAR, tool_use_id VARCHAR, is_error BOOLEAN,
    result VARCHAR, file VARCHAR, rec BIGINT);
  create or replace table transcript_files (dir VARCHAR, file VARCHAR, lines BIGINT, abs VARCHAR);`;

/** Every `*.jsonl` file under `dir`, recursively, sorted. */
export function listTranscriptFiles(dir: string): string[] {
  return listFiles(dir, (name) => name.endsWith('.jsonl'));
}

/**
 * Load the transcripts under each directory. Throws InputError when a directory does not exist or a
 * line is malformed (naming file:line).
 */
export interface Progress {
  files: number;
  bytes: number;
  /** Estimated share of the scan done, 0 to 1. */
  fraction: number;
}

export async function loadTranscripts(
  db: Database,
  dirs: string[],
  options: { skillResults?: boolean; onProgress?: (p: Progress) => void } = {},
): Promise<void> {
  const files: { abs: string; dir: string; rel: string }[] = [];
  for (const d of dirs) {
    const dir = resolve(d);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new InputError(
        `${displayPath(dir)}: no such transcripts directory`,
        'pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>',
      );
    }
    for (const abs of listTranscriptFiles(dir)) files.push({ abs, dir, rel: relative(dir, abs).split(sep).join('/') });
  }
  if (files.length === 0) {
    // No transcripts: the same tables, empty, without a scan (a test holds the two shapes equal).
    await db.exec(EMPTY_TABLES, undefined, 'creating the transcript tables');
    return;
  }
  await db.exec(`create or replace table transcript_files (abs VARCHAR, dir VARCHAR, file VARCHAR)`);
  if (files.length) {
    await db.exec(
      `insert into transcript_files values ${files.map((f) => `(${sqlString(f.abs)}, ${sqlString(f.dir)}, ${sqlString(f.rel)})`).join(', ')}`,
    );
  }
  // The scan builds transcript_lines directly, with each line's file relative to its folder
  // (computed in the projection, so no join), and its tool calls as a list column that
  // transcript_tool_uses unnests; the helper columns are dropped afterwards.
  const roots = [...new Set(files.map((f) => f.dir))].sort((a, b) => b.length - a.length);
  const totalBytes = options.onProgress ? files.reduce((n, f) => n + statSync(f.abs).size, 0) : 0;
  const relFile = roots.length
    ? `case ${roots.map((r) => `when starts_with(file, ${sqlString(r + '/')}) then substr(file, ${r.length + 2})`).join(' ')} else file end`
    : 'file';
  await readJsonl(db, 'transcript_lines', files.map((f) => f.abs), {
    columns: `${relFile} as rel, ${SCAN_COLUMNS}`,
    parse: LINE_SCHEMA,
    persistent: true,
    onProgress: options.onProgress && ((fraction) => options.onProgress!({ files: files.length, bytes: totalBytes, fraction })),
  });
  await rejectNonObjects(db);
  await db.exec(
    `update transcript_lines as l set session_id = coalesce(fs.s, regexp_replace(l.rel, '^.*/|\\.jsonl$', '', 'g'))
     from (select rel, arg_min(session_id, rec) filter (where session_id is not null) as s from transcript_lines group by rel) as fs
     where l.session_id is null and fs.rel = l.rel;
     create or replace table transcript_tool_uses as
     with blocks as (
       select session_id, rel as file, rec, timestamp, version, model, is_sidechain,
              case when is_sidechain then agent_id end as agent_id,
              unnest(tool_uses) as b, unnest(generate_series(1, len(tool_uses))) as block
       from transcript_lines
       where len(tool_uses) > 0
     ), ranked as (
       select *, row_number() over (partition by session_id, b.id order by timestamp nulls last, file, rec, block) as k
       from blocks
     )
     select session_id,
            row_number() over (partition by session_id order by timestamp nulls last, file, rec, block) as ordinal,
            b.id as tool_use_id, b.name, b.input_keys, b.skill, agent_id, is_sidechain,
            timestamp, version, model, file, rec, block
     from ranked where k = 1;
     create or replace table transcript_files as
     select f.dir, f.file, count(l.rec) as lines, f.abs
     from transcript_files f left join transcript_lines l on l.rel = f.file group by all;
     alter table transcript_lines drop column tool_uses;
     alter table transcript_lines drop column is_object;
     alter table transcript_lines drop column ok;
     alter table transcript_lines drop column file;
     alter table transcript_lines rename column rel to file;`,
    undefined,
    'building the transcript tables',
  );
  await loadSkillResults(db, options.skillResults !== false);
}

/**
 * The tool_result answering each Skill call. Results can be large (a Read of a big file), so they
 * are parsed only in the files that made a Skill call, and only their text for the calls kept.
 */
async function loadSkillResults(db: Database, wanted: boolean): Promise<void> {
  const files = !wanted ? [] : (
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
       from read_ndjson_objects([${files.map(sqlString).join(', ')}], filename = true, maximum_object_size = 268435456) with ordinality
       where contains(json::VARCHAR, '"tool_result"')`
    : `select null::VARCHAR as abs, null::BIGINT as o, from_json('{}', ${sqlString(RESULTS_SCHEMA)}) as t where false`;
  await db.exec(
    `create or replace table transcript_tool_results as
     with firsts as (
       select filename as abs, min(ordinality) as first
       from read_ndjson_objects([${files.length ? files.map(sqlString).join(', ') : "''"}], filename = true, maximum_object_size = 268435456) with ordinality
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
    undefined,
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
      await db.query(`select json_type(json) as k from read_ndjson_objects([${sqlString(file)}, ${sqlString(file)}]) limit 1 offset ${Number(bad.rec) - 1}`)
    ).rows[0]?.k;
    const kinds: Record<string, string> = { VARCHAR: 'a string', ARRAY: 'an array', BOOLEAN: 'a boolean', NULL: 'null', DOUBLE: 'a number', UBIGINT: 'an integer', BIGINT: 'an integer' };
    const got = kinds[String(kind)] ?? String(kind).toLowerCase();
    throw recordError(file, Number(bad.rec), `transcript line: not a JSON object (got ${got})`, 'every transcript line is one JSON object');
  }
}
