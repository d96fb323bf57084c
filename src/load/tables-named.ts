/**
 * Which tables SQL reads: what a load for that SQL alone builds (a user's own, by the names it holds;
 * a probe's registered checks, as DuckDB parses them), and what `sql` warns of when a table it reads
 * was not loaded.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inputFile, listFiles, MAX_REGISTERED_BYTES } from '../base/paths.js';
import type { Database } from '../db/database.js';
import { tablesRead } from '../db/table-refs.js';
import { VIEWS } from '../db/views.js';

/** The tables loading transcripts can build. */
const TRANSCRIPT_TABLES = [
  'transcript_files',
  'transcript_lines',
  'transcript_sessions',
  'transcript_tool_uses',
  'transcript_tool_results',
  'transcript_messages',
  'model_prices',
];

/**
 * SQL that can reach a table without naming it: the catalog, SHOW, DESCRIBE, SUMMARIZE, PRAGMA,
 * and the functions that run a query or read a table given as a string.
 */
const UNNAMED_READ = /\b(information_schema|pg_catalog|sqlite_master|duckdb_\w+|show|describe|summarize|pragma\w*|query(_table)?\s*\()/i;

/**
 * The transcript tables `sql` names as words (OpenOptions.tables), so that a load for it builds
 * only those and what they are made from; every one when it could read a table it does not name
 * (UNNAMED_READ).
 */
export function transcriptTablesNamed(sql: string): string[] {
  return UNNAMED_READ.test(sql) ? TRANSCRIPT_TABLES : namedAsWords(sql);
}

const namedAsWords = (sql: string) => withMessages(TRANSCRIPT_TABLES.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(sql)));

// A session's token and cost columns come from its responses.
const withMessages = (named: string[]) =>
  named.includes('transcript_sessions') && !named.includes('transcript_messages') ? [...named, 'transcript_messages'] : named;

/**
 * The transcript tables the registered triggers and checks of `probes` read, as DuckDB parses them
 * (tablesRead), so that a load that will evaluate them builds those too: a registered file may read
 * any documented view, whatever the command's own queries are. A file that is not a SELECT here, or
 * cannot be read, is left to its evaluation, which says why.
 */
export async function registeredTablesRead(db: Database, probes: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const probe of probes) {
    const dir = join(probe, 'registration');
    let files: string[];
    try {
      files = listFiles(dir, (name) => !name.endsWith('.jsonl'));
    } catch {
      continue;
    }
    for (const file of files) {
      try {
        if (inputFile(file, realpathSync(dir), dir) && statSync(file).size <= MAX_REGISTERED_BYTES) texts.push(readFileSync(file, 'utf8'));
      } catch {
        // Refused by its evaluation, in words.
      }
    }
  }
  // Parsed at once: each is a round trip to DuckDB, and the load waits for them.
  const parsed = await Promise.all(texts.map((t) => db.parse(t)));
  const read = new Set(parsed.flatMap((p) => (p.error ? [] : tablesRead(p.statements))));
  return withMessages(TRANSCRIPT_TABLES.filter((t) => read.has(t)));
}

/**
 * Of the tables a query reads (`read`, tablesReadBy), the documented ones that hold no row for what
 * was loaded: the probe tables when no probe was, the transcript tables when no transcripts were
 * (model_prices, the price table, is always loaded). What `sql` warns of, since such a query
 * returns no row and says nothing.
 */
export function unloadedTables(tables: string[], loaded: { probes: boolean; transcripts: boolean }): string[] {
  const read = new Set(tables);
  return VIEWS.filter((v) => read.has(v.name) && v.name !== 'model_prices' && !(v.transcripts ? loaded.transcripts : loaded.probes)).map(
    (v) => v.name,
  );
}
