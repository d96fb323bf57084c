/**
 * Reads JSONL files into DuckDB with every physical line accounted for. DuckDB parses
 * (`read_ndjson_objects`); this module only lists files, and on the error path maps DuckDB's
 * per-file record number back to a physical line number (DuckDB skips blank lines).
 *
 * The table it makes holds one row per non-blank line: `file` (as given), `rec` (1-based record
 * number within the file) and `json` (NULL when the line is not valid JSON or not valid UTF-8).
 * Callers never see a NULL row: a malformed line is an InputError naming `file:line`.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { Database, pathList, sqlString } from './db.js';
import { InputError } from './errors.js';
import { displayPath } from './paths.js';

/** DuckDB's `maximum_object_size` is per line; set generously (stack-notes §7.5). */
export const MAX_OBJECT = 256 * 1024 * 1024;

/** Blank as DuckDB counts it: empty, or only spaces, tabs and carriage returns. */
const BLANK = /^[ \t\r]*$/;

/**
 * Load `files` into table `table (file VARCHAR, rec BIGINT, json JSON)`. An empty list makes an
 * empty table. Throws InputError for the first malformed line, by file then line.
 *
 * With a projection, the table holds `file, rec, ok` and the projection's columns instead of
 * `json`: they are computed during the scan, so a large line's body is never stored. `columns` is a
 * SQL select list over `json` and, when `parse` (a from_json schema) is given, over `t`, the line
 * parsed with it.
 */
export interface Projection {
  columns: string;
  parse?: string;
  /** Make a persistent table rather than a temporary one (it is then saved by `load --db`). */
  persistent?: boolean;
  /** Told how far the scan has got, 0 to 1, while it runs. */
  onProgress?: (fraction: number) => void;
}

export async function readJsonl(db: Database, table: string, files: string[], projection?: Projection): Promise<void> {
  const columns = projection?.columns;
  if (files.length === 0) {
    await db.exec(
      `create or replace ${projection?.persistent ? '' : 'temp '}table ${table} as
       select null::VARCHAR as file, null::BIGINT as rec, ${columns ? 'true as ok, ' + columns : 'json'}
       from (select '{}'::JSON as json${projection?.parse ? `, from_json('{}'::JSON, ${sqlString(projection.parse)}) as t` : ''}) where false`,
    );
    return;
  }
  // DuckDB rejects a UTF-8 BOM when it reads a single file, and skips it when it reads a list of
  // two or more (duckdb/duckdb#16568). Reading a lone file twice and keeping the first copy makes
  // both cases behave alike.
  const twice = files.length === 1 && startsWithBom(files[0]!);
  // WITH ORDINALITY numbers records across the whole scan, file after file; subtracting each
  // file's first number gives the record number within the file. The projection runs before the
  // window, so only the small columns pass through it.
  await db.exec(
    `create or replace ${projection?.persistent ? '' : 'temp '}table ${table} as
     with scan as (
       select file, o, json is not null as ok, ${columns ?? 'json'}
       from (
         select filename as file, ordinality as o, json${projection?.parse ? `, from_json(json, ${sqlString(projection.parse)}) as t` : ''}
         from read_ndjson_objects($files, filename = true, ignore_errors = true,
                                  maximum_object_size = ${MAX_OBJECT}) with ordinality)
     ), numbered as (
       select * exclude (o), o - min(o) over (partition by file) + 1 as rec${twice ? ', count(*) over (partition by file) as n' : ''}
       from scan
     )
     select file, rec, ${columns ? `* exclude (file, rec${twice ? ', n' : ''})` : 'json'} from numbered
     where ${twice ? 'rec <= n / 2' : 'true'}`,
    { files: pathList(twice ? [files[0]!, files[0]!] : files) },
    'reading JSONL',
    projection?.onProgress,
  );
  const bad = await db.query(
    `select file, rec from ${table} where ${columns ? 'not ok' : 'json is null'} order by file, rec limit 1`,
  );
  const first = bad.rows[0];
  if (first) {
    const file = String(first.file);
    const rec = Number(first.rec);
    throw new InputError(
      `${displayPath(file)}:${physicalLine(file, rec)}: ${await describeBadLine(db, file, rec)}`,
      'every line must be one JSON object; fix or remove that line',
    );
  }
}

/** The physical (1-based) line number of the `rec`-th non-blank line of `file`. */
export function physicalLine(file: string, rec: number): number {
  const lines = readFileSync(file).toString('latin1').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!BLANK.test(lines[i]!)) seen++;
    if (seen === rec) return i + 1;
  }
  return lines.length;
}

/**
 * Why a line could not be read, in words. DuckDB's own reason is taken from a strict re-read of
 * the file (its line number is not a physical one, so only the reason is kept).
 */
async function describeBadLine(db: Database, file: string, rec: number): Promise<string> {
  const bytes = readFileSync(file);
  const line = physicalLine(file, rec);
  let start = 0;
  for (let i = 1; i < line; i++) start = bytes.indexOf(0x0a, start) + 1;
  let end = bytes.indexOf(0x0a, start);
  const last = end === -1;
  if (last) end = bytes.length;
  const raw = bytes.subarray(start, end);
  if (!isValidUtf8(raw)) return 'invalid UTF-8';
  const reason = await strictReason(db, file);
  const truncated = last && raw.length > 0 ? '; the last line has no newline, was the file cut short?' : '';
  return `malformed JSON${reason ? `: ${reason}` : ''}${truncated}`;
}

async function strictReason(db: Database, file: string): Promise<string | undefined> {
  try {
    await db.query(
      `select count(json) from read_ndjson_objects($files, maximum_object_size = ${MAX_OBJECT})`,
      { files: pathList([file, file]) },
    );
  } catch (err) {
    // DuckDB's own advice ("Try auto-detecting the JSON format") is about its reader, not the file.
    return /in line \d+: ([^\n]*)/.exec((err as Error).message)?.[1]?.replace(/[.\s]*Try auto-detecting the JSON format[.\s]*$/, '').replace(/[.\s]+$/, '');
  }
  return undefined;
}

function isValidUtf8(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

function startsWithBom(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(3);
    const n = readSync(fd, head, 0, 3, 0);
    return n === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  } finally {
    closeSync(fd);
  }
}
