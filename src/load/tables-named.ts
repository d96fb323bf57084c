/**
 * Which tables SQL reads: what a load for that SQL alone builds (a user's own, by the names it holds;
 * a probe's registered checks, as DuckDB parses them), and what `sql` warns of when a table it reads
 * was not loaded.
 */
import { join } from 'node:path';
import { readRegisteredFile } from '../base/registered-file.js';
import { type Database, pathList } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { PARSED_AT_MOST } from '../db/table-refs.js';
import { discoverProbe } from './inputs.js';
import { type View, VIEWS } from '../db/views.js';

/** The tables a probe's registered checks answer into: a load for queries that read one runs the checks. */
export const REGISTRATION_ANSWERS: readonly string[] = ['trigger_results', 'conjunct_results'];

/** The tables loading transcripts can build. */
const TRANSCRIPT_TABLES = [
  'transcript_files',
  'transcript_lines',
  'transcript_sessions',
  'transcript_tool_uses',
  'transcript_tool_use_copies',
  'transcript_mirrored_calls',
  'transcript_subagent_results',
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
 * The transcript tables the registered triggers and checks of `probes` read, as DuckDB parses them,
 * so that a load that will evaluate them builds those too: a registered file may read any documented
 * view, whatever the command's own queries are. Only the files the registration names are read, one
 * at a time; at the first that is not one SELECT (or cannot be read) the evaluation will fail, so
 * none is built for it. Parsing is bounded (PARSED_AT_MOST): a longer file is read for the names it holds.
 */
export async function registeredTablesRead(db: Database, probes: string[]): Promise<string[]> {
  const read = new Set<string>();
  for (const probe of probes) {
    const dir = join(probe, 'registration');
    let records: string[];
    try {
      records = discoverProbe(probe)
        .files.filter((f) => f.kind === 'registration')
        .map((f) => f.abs);
    } catch {
      continue;
    }
    if (records.length === 0) continue;
    const named = await db.query(readSql('probe/registered-files'), { files: pathList(records) }, 'sql/probe/registered-files.sql');
    for (const { path } of named.rows) {
      let tables: string[] | null = null;
      try {
        const file = readRegisteredFile(dir, String(path));
        // A long one is read for the names it holds, which may build more than it reads, never less.
        if ('text' in file) tables = file.text.length > PARSED_AT_MOST ? namedAsWords(file.text) : await db.tablesRead(file.text);
      } catch {
        // Refused by its evaluation, in words.
      }
      if (tables === null) return [];
      for (const t of tables) read.add(t);
    }
  }
  // A check sees the files holding its spawns' lines (analysis/registered-sql.ts scopeToProbe).
  if (read.has('transcript_files')) read.add('transcript_lines');
  return withMessages(TRANSCRIPT_TABLES.filter((t) => read.has(t)));
}

/**
 * Of the tables a query reads (`read`, tablesReadBy), the documented ones that hold no row for what
 * was loaded, by kind: the probe tables when no probe was, the transcript tables when no transcripts
 * were (model_prices, the price table, is always loaded). What `sql` warns of, since such a query
 * returns no row and says nothing.
 */
export function unloadedTables(
  tables: string[],
  loaded: { probes: boolean; transcripts: boolean },
): { probes: string[]; transcripts: string[] } {
  const read = VIEWS.filter((v) => tables.includes(v.name));
  const of = (source: View['source']) => read.filter((v) => v.source === source).map((v) => v.name);
  return { probes: loaded.probes ? [] : of(undefined), transcripts: loaded.transcripts ? [] : of('transcripts') };
}
