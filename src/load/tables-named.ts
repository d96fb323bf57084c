/**
 * Which tables SQL reads, by the names it holds: what a load for that SQL alone builds (a user's
 * own, a probe's registered checks), and what `sql` warns of when a table it reads was not loaded.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inputFile, listFiles, MAX_REGISTERED_BYTES } from '../base/paths.js';
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

function namedAsWords(sql: string): string[] {
  const named = TRANSCRIPT_TABLES.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(sql));
  // A session's token and cost columns come from its responses.
  return named.includes('transcript_sessions') && !named.includes('transcript_messages') ? [...named, 'transcript_messages'] : named;
}

/**
 * The transcript tables the registered triggers and checks of `probes` name, so that a load for
 * some queries alone builds them too: a registered file may read any documented view, and runs
 * whatever the queries are. It can name a table only as a word (docs/registration.md refuses the
 * catalog and SHOW). A file that cannot be read here is left to its evaluation, which says why.
 */
export function registeredTablesNamed(probes: string[]): string[] {
  const out = new Set<string>();
  for (const probe of probes) {
    const dir = join(probe, 'registration');
    try {
      const real = realpathSync(dir);
      for (const file of listFiles(dir, (name) => !name.endsWith('.jsonl'))) {
        if (!inputFile(file, real, dir) || statSync(file).size > MAX_REGISTERED_BYTES) continue;
        for (const t of namedAsWords(readFileSync(file, 'utf8'))) out.add(t);
      }
    } catch {
      // No registration folder, or one the evaluation refuses in words.
    }
  }
  return [...out].sort();
}

/**
 * The documented tables `sql` reads (named after FROM or JOIN) that hold no row for what was
 * loaded: the probe tables when no probe was, the transcript tables when no transcripts were. What
 * `sql` warns of, since such a query returns no row and says nothing.
 */
export function unloadedTablesRead(sql: string, loaded: { probes: boolean; transcripts: boolean }): string[] {
  const read = new Set([...sql.matchAll(/\b(?:from|join)\s+("?)(\w+)\1/gi)].map((m) => m[2]!.toLowerCase()));
  return VIEWS.filter((v) => read.has(v.name) && !(v.transcripts ? loaded.transcripts : loaded.probes)).map((v) => v.name);
}
