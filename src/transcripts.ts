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
 *   transcript_tool_results one row per tool_result block of a `user` line, first answer per id
 *
 * A line's session is its `sessionId`; a line without one (summary, file-history-snapshot) takes
 * the first `sessionId` of its file, or else the file's name.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { Database, sqlString } from './db.js';
import { InputError } from './errors.js';
import { readJsonl } from './jsonl.js';
import { displayPath } from './paths.js';

/** The typed shape DuckDB extracts from each line; everything else on the line is skipped. */
const LINE_SCHEMA = JSON.stringify({
  type: 'VARCHAR',
  subtype: 'VARCHAR',
  sessionId: 'VARCHAR',
  uuid: 'VARCHAR',
  timestamp: 'VARCHAR',
  version: 'VARCHAR',
  isSidechain: 'BOOLEAN',
  agentId: 'VARCHAR',
  message: {
    model: 'VARCHAR',
    content: [{ type: 'VARCHAR', id: 'VARCHAR', name: 'VARCHAR', input: 'JSON', tool_use_id: 'VARCHAR', is_error: 'BOOLEAN', content: 'JSON' }],
  },
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

/** Columns computed from each line during the scan (jsonl.ts). */
const SCAN_COLUMNS = `
  t.type, t.subtype, t.sessionId as session_id, t.uuid, t.timestamp, t.version,
  coalesce(t.isSidechain, false) as is_sidechain, t.agentId as agent_id, t.message.model as model,
  json_type(json) as json_kind,
  case when t.type = 'assistant' then
    list_transform(
      list_filter(t.message.content, b -> b.type = 'tool_use'),
      b -> {'id': b.id, 'name': b.name, 'input_keys': list_sort(json_keys(b.input)), 'skill': ${SKILL_OF_BLOCK}})
  end as tool_uses,
  case when t.type = 'user' then
    list_transform(
      list_filter(t.message.content, b -> b.type = 'tool_result'),
      b -> {'tool_use_id': b.tool_use_id, 'is_error': b.is_error, 'text': ${RESULT_TEXT}})
  end as tool_results,
  json_type(t.toolUseResult) = 'VARCHAR' and starts_with(t.toolUseResult ->> '$', 'Error:') as result_says_error`;

/** Every `*.jsonl` file under `dir`, recursively, sorted. */
export function listTranscriptFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * Load the transcripts under each directory. Throws InputError when a directory does not exist or a
 * line is malformed (naming file:line).
 */
export async function loadTranscripts(db: Database, dirs: string[]): Promise<void> {
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
  await db.exec(`create or replace table transcript_files (abs VARCHAR, dir VARCHAR, file VARCHAR)`);
  if (files.length) {
    await db.exec(
      `insert into transcript_files values ${files.map((f) => `(${sqlString(f.abs)}, ${sqlString(f.dir)}, ${sqlString(f.rel)})`).join(', ')}`,
    );
  }
  await readJsonl(db, 'tx_scan', files.map((f) => f.abs), { columns: SCAN_COLUMNS, parse: LINE_SCHEMA });
  await rejectNonObjects(db);
  await db.exec(
    `create or replace temp table tx_lines as
     with file_session as (
       select file, arg_min(session_id, rec) as s from tx_scan where session_id is not null group by file
     )
     select f.file, s.rec, s.type, s.subtype,
            coalesce(s.session_id, fs.s, regexp_replace(f.file, '^.*/|\\.jsonl$', '', 'g')) as session_id,
            s.uuid, s.timestamp, s.version, s.is_sidechain, s.agent_id, s.model, s.tool_uses, s.tool_results,
            s.result_says_error
     from tx_scan s
     join transcript_files f on f.abs = s.file
     left join file_session fs on fs.file = s.file`,
  );
  await db.exec(
    `create or replace table transcript_lines as
     select file, rec, type, subtype, session_id, uuid, timestamp, version, is_sidechain, agent_id, model
     from tx_lines order by file, rec`,
  );
  await db.exec(
    `create or replace table transcript_tool_uses as
     with blocks as (
       select session_id, file, rec, timestamp, version, model, is_sidechain,
              case when is_sidechain then agent_id end as agent_id,
              unnest(tool_uses) as b, unnest(generate_series(1, len(tool_uses))) as block
       from tx_lines where type = 'assistant' and len(tool_uses) > 0
     ), ranked as (
       select *, row_number() over (partition by session_id, b.id order by timestamp nulls last, file, rec, block) as k
       from blocks
     )
     select session_id,
            row_number() over (partition by session_id order by timestamp nulls last, file, rec, block) as ordinal,
            b.id as tool_use_id, b.name, b.input_keys, b.skill, agent_id, is_sidechain,
            timestamp, version, model, file, rec, block
     from ranked where k = 1
     order by session_id, ordinal`,
  );
  await db.exec(
    `create or replace table transcript_tool_results as
     with blocks as (
       select session_id, file, rec, timestamp, result_says_error,
              unnest(tool_results) as b, unnest(generate_series(1, len(tool_results))) as block
       from tx_lines where type = 'user' and len(tool_results) > 0
     ), ranked as (
       select *, row_number() over (partition by session_id, b.tool_use_id order by timestamp nulls last, file, rec, block) as k
       from blocks
     )
     select session_id, b.tool_use_id,
            coalesce(b.is_error, false) or coalesce(result_says_error, false) or coalesce(b.text like '%<tool_use_error>%', false) as is_error,
            b.text as result, file, rec
     from ranked where k = 1
     order by session_id, file, rec, block`,
  );
  await db.exec(
    `create or replace table transcript_files as
     select f.dir, f.file, count(s.rec) as lines, f.abs
     from transcript_files f left join tx_scan s on s.file = f.abs group by all order by f.dir, f.file`,
  );
  await db.exec(`drop table tx_lines`);
  await db.exec(`drop table tx_scan`);
}

/** A transcript line must be a JSON object (a record); any type of record is kept. */
async function rejectNonObjects(db: Database): Promise<void> {
  const res = await db.query(`select file, rec, json_kind from tx_scan where json_kind <> 'OBJECT' order by file, rec limit 1`);
  const bad = res.rows[0];
  if (bad) {
    const { recordError } = await import('./schema.js');
    const kinds: Record<string, string> = { VARCHAR: 'a string', ARRAY: 'an array', BOOLEAN: 'a boolean', NULL: 'null', DOUBLE: 'a number', UBIGINT: 'an integer', BIGINT: 'an integer' };
    const got = kinds[String(bad.json_kind)] ?? String(bad.json_kind).toLowerCase();
    throw recordError(String(bad.file), Number(bad.rec), `transcript line: not a JSON object (got ${got})`, 'every transcript line is one JSON object');
  }
}
