#!/usr/bin/env node
/**
 * bench/duckdb-scan.mjs — the engine floor for the census benchmark: DuckDB's own typed scan of
 * the transcripts, with nothing else around it (no file listing, no line numbers, no tables).
 *
 *   node bench/duckdb-scan.mjs DIR > census.tsv
 *
 * read_ndjson_objects over DIR/**\/*.jsonl (ignore_errors=false, so a bad line fails loudly), a
 * typed from_json of only the fields the census needs, unnest of message.content, then per
 * (sessionId, tool name) count(distinct id) of the tool_use blocks of top-level `assistant` lines
 * (progress lines have type "progress" and drop out). Prints `session_id<TAB>tool<TAB>count`,
 * sorted, no header: the format of the generator's expected.tsv.
 */
import { resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir || process.argv.length !== 3) {
  process.stderr.write('usage: node bench/duckdb-scan.mjs DIR\n');
  process.exit(2);
}
const glob = `${resolve(dir)}/**/*.jsonl`.replaceAll("'", "''");
const schema = '{"type":"VARCHAR","sessionId":"VARCHAR","message":{"content":[{"type":"VARCHAR","id":"VARCHAR","name":"VARCHAR"}]}}';

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const reader = await con.runAndReadAll(`
  with lines as (
    select from_json(json, '${schema}') as j
    from read_ndjson_objects('${glob}', ignore_errors = false)
  ), blocks as (
    select j.sessionId as session_id, unnest(j.message.content) as b
    from lines
    where j.type = 'assistant'
  )
  select session_id, b.name as tool, count(distinct b.id) as n
  from blocks
  where b.type = 'tool_use'
  group by all
  order by session_id, tool`);
const out = reader
  .getRows()
  .map(([s, t, n]) => `${s}\t${t}\t${n}\n`)
  .join('');
process.stdout.write(out);
con.closeSync();
instance.closeSync();
