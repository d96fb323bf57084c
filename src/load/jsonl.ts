/**
 * Reads a probe's JSONL files into DuckDB with every physical line accounted for. DuckDB parses
 * (`read_ndjson_objects`, sql/probe/raw-records.sql); this module hands it the files, and on the
 * error path maps DuckDB's per-file record number back to a physical line number (DuckDB skips
 * blank lines). Callers never see a line DuckDB could not read: it is an InputError naming
 * `file:line`.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { DuckDBValue } from '@duckdb/node-api';
import { type Database, pathList } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';

/** DuckDB's `maximum_object_size` is per line; set generously (DuckDB's default is 16 MiB; a Claude Code line with a large tool result can pass it). */
export const MAX_OBJECT = 256 * 1024 * 1024;

/**
 * Load `files` into temp table `raw_records (file VARCHAR, rec BIGINT, json JSON)`
 * (sql/probe/raw-records.sql). An empty list makes an empty table. Throws InputError for the first
 * malformed line, by file then line.
 */
export async function readJsonl(db: Database, files: string[]): Promise<void> {
  if (files.length === 0) {
    await db.exec('create or replace temp table raw_records (file VARCHAR, rec BIGINT, json JSON)');
    return;
  }
  // DuckDB rejects a UTF-8 BOM when it reads a single file, and skips it when it reads a list of
  // two or more (duckdb/duckdb#16568): a lone file with one is read twice, its first copy kept.
  const twice = files.length === 1 && startsWithBom(files[0]!);
  try {
    await db.exec(
      readSql('probe/raw-records'),
      { files: pathList(twice ? [files[0]!, files[0]!] : files), twice, max_object: MAX_OBJECT },
      'reading JSONL',
    );
  } catch (err) {
    throw lineTooLong(err) ?? err;
  }
  const bad = await db.query('select file, rec from raw_records where json is null order by file, rec limit 1');
  const first = bad.rows[0];
  if (first) throw await describeLine(db, String(first.file), Number(first.rec));
}

/** The error for record `rec` of `file`, a line that is not JSON: its physical line, and why. */
export async function describeLine(db: Database, file: string, rec: number): Promise<InputError> {
  return new InputError(
    `${lineOf(file, rec)}: ${await describeBadLine(db, file, rec)}`,
    'every line must be one JSON object; fix or remove that line',
  );
}

/**
 * Files for one scan of DuckDB's readers, a lone file twice: DuckDB rejects a UTF-8 BOM when it
 * reads one file and skips it when it reads two or more (duckdb/duckdb#16568). The first copy's
 * ordinalities are its record numbers.
 */
export function oneScan(paths: string[]): DuckDBValue {
  return pathList(paths.length === 1 ? [paths[0]!, paths[0]!] : paths);
}

/** Where a line is in its file: its physical (1-based) number and its bytes [start, end). */
interface Span {
  line: number;
  start: number;
  end: number;
  /** The file's last line, with no newline after it. */
  last: boolean;
}

const CHUNK = 1 << 20;

/**
 * Stream `file` a chunk at a time, line by line, never holding more than a chunk: `stop` is told
 * each line's span and whether it is blank (as DuckDB counts it), and ends the walk by returning
 * true. Returns the span it stopped at, or the file's last line.
 */
function walkLines(file: string, stop: (span: Span, blank: boolean) => boolean): Span {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    let [line, start, pos, blank] = [1, 0, 0, true];
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n === 0) {
        const span = { line, start, end: pos, last: true };
        stop(span, blank);
        return span;
      }
      for (let i = 0; i < n; i++) {
        const b = buf[i]!;
        // Blank, as DuckDB's reader skips it: spaces, tabs, CR, vertical tabs and form feeds only (C's isspace).
        if (b === 0x0a) {
          const span = { line, start, end: pos + i, last: false };
          if (stop(span, blank)) return span;
          [line, start, blank] = [line + 1, pos + i + 1, true];
        } else if (blank && b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0b && b !== 0x0c) blank = false;
      }
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The span of the `rec`-th non-blank line of `file` (the last line when there are fewer). */
function recordSpan(file: string, rec: number): Span {
  let seen = 0;
  return walkLines(file, (_, blank) => !blank && ++seen === rec);
}

/** Where the `rec`-th non-blank line of `file` is, as messages name it: `path:line`. */
export const lineOf = (file: string, rec: number): string => `${displayPath(file)}:${physicalLine(file, rec)}`;

/** The physical (1-based) line number of the `rec`-th non-blank line of `file`. */
export function physicalLine(file: string, rec: number): number {
  return recordSpan(file, rec).line;
}

/** The physical line number of the first line of `file` longer than `limit` bytes, if any. */
function firstLongLine(file: string, limit: number): number | undefined {
  let found: number | undefined;
  walkLines(file, (span) => {
    if (span.end - span.start > limit) found = span.line;
    return found !== undefined;
  });
  return found;
}

/**
 * The line too long for DuckDB's reader that `err` reports, as an InputError; else undefined.
 * DuckDB names the file and the size its buffer reached, not the line, so the file is streamed to
 * find the first line that long.
 */
export function lineTooLong(err: unknown): InputError | undefined {
  const m = /"maximum_object_size" of \d+ bytes exceeded while reading file "([^"]+)" \(>(\d+) bytes\)/.exec((err as Error)?.message ?? '');
  if (!m) return undefined;
  const file = m[1]!;
  const line = firstLongLine(file, Math.min(MAX_OBJECT, Number(m[2])) - 1);
  return new InputError(
    `${displayPath(file)}${line === undefined ? '' : `:${line}`}: line is longer than ${MAX_OBJECT / (1024 * 1024)} MB`,
    'a line is one record, and no record of a probe or a transcript is that large: remove or shorten that line',
  );
}

/**
 * Why a line could not be read, in words. DuckDB's own reason is taken from a strict re-read of
 * the file (its line number is not a physical one, so only the reason is kept). The file is
 * streamed: only the bad line's bytes are looked at, a chunk at a time.
 */
async function describeBadLine(db: Database, file: string, rec: number): Promise<string> {
  const span = recordSpan(file, rec);
  if (!isValidUtf8(file, span)) return 'invalid UTF-8';
  const reason = await strictReason(db, file);
  const note = hasBareCr(file, span)
    ? '; its lines end in a CR alone (classic Mac OS), where JSON Lines end each in LF or CRLF'
    : span.last && span.end > span.start
      ? '; the last line has no newline, was the file cut short?'
      : '';
  return `malformed JSON${reason ? `: ${reason}` : ''}${note}`;
}

/**
 * Whether a bad line holds lines that end in a CR alone: a CR outside a string followed, past spaces
 * and tabs, by a record's `{` (DuckDB reads such lines as one). A CR inside a string is a control
 * character JSON refuses, not a line's end.
 */
function hasBareCr(file: string, span: Span): boolean {
  let [afterCr, inString, escaped] = [false, false, false];
  return someChunk(file, span, (chunk) => {
    for (const b of chunk) {
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) inString = false;
      } else if (afterCr && b === 0x7b) return true;
      else if (b === 0x22) [inString, afterCr] = [true, false];
      else if (b === 0x0d) afterCr = true;
      else if (b !== 0x20 && b !== 0x09) afterCr = false;
    }
    return false;
  });
}

/** Whether `test` holds for some chunk of bytes [start, end) of `file`, read in turn, a chunk at a time. */
function someChunk(file: string, span: Span, test: (chunk: Buffer) => boolean): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    for (let pos = span.start; pos < span.end; ) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, span.end - pos), pos);
      if (n === 0) break;
      if (test(buf.subarray(0, n))) return true;
      pos += n;
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

async function strictReason(db: Database, file: string): Promise<string | undefined> {
  try {
    await db.query(`select count(json) from read_ndjson_objects($files, maximum_object_size = ${MAX_OBJECT})`, { files: oneScan([file]) });
  } catch (err) {
    // DuckDB's own advice ("Try auto-detecting the JSON format") is about its reader, not the file.
    return /in line \d+: ([^\n]*)/
      .exec((err as Error).message)?.[1]
      ?.replace(/[.\s]*Try auto-detecting the JSON format[.\s]*$/, '')
      .replace(/[.\s]+$/, '');
  }
  return undefined;
}

/** Whether bytes [start, end) of `file` are valid UTF-8, decoded a chunk at a time. */
function isValidUtf8(file: string, span: Span): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    someChunk(file, span, (chunk) => {
      decoder.decode(chunk, { stream: true });
      return false;
    });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The most bytes a tool_use/<session_id>.err may hold: what a spawn wrote on stderr, read whole. */
export const MAX_ERR_BYTES = 2 ** 20;

/**
 * The text of a tool_use/<session_id>.err, which must be UTF-8 (DuckDB's read_text refuses it
 * otherwise, naming no line): the first line that is not is an InputError, never read with U+FFFD
 * in its place. A BOM is kept, so that the text is the file's bytes. One over MAX_ERR_BYTES is an
 * InputError, before it is read.
 */
export function errText(file: string): string {
  const size = statSync(file).size;
  if (size > MAX_ERR_BYTES) {
    throw new InputError(
      `${displayPath(file)}: a .err file of ${(size / 2 ** 20).toFixed(1)} MiB, over the 1 MiB a spawn's stderr may hold`,
      "a spawn's .err holds the text it wrote on stderr: keep the part that says why it failed",
    );
  }
  const bytes = readFileSync(file);
  // Buffer's decoding keeps a BOM, as TextDecoder does only when told.
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let line = 1;
  // 0x0A is never inside a UTF-8 sequence: each line decodes alone.
  for (let at = 0, end = bytes.indexOf(10); end >= 0; at = end + 1, end = bytes.indexOf(10, at), line++) {
    if (!isUtf8(bytes.subarray(at, end))) break;
  }
  throw new InputError(`${displayPath(file)}:${line}: invalid UTF-8`, "a spawn's .err holds the text it wrote on stderr: save it as UTF-8");
}

export function startsWithBom(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(3);
    const n = readSync(fd, head, 0, 3, 0);
    return n === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  } finally {
    closeSync(fd);
  }
}
