/**
 * The public queries in queries/: one SELECT per file, the file name is the query's public name,
 * and a header comment says what it reads, its parameters and what it returns. This module finds
 * and reads them; running them is database.ts's job.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../base/errors.js';
import { queriesDir, sqlDir } from '../base/paths.js';

export interface Query {
  name: string;
  /** `queries/<name>.sql`, as shown in messages. */
  source: string;
  sql: string;
  /** The first header line after `<name>:`. */
  summary: string;
  /** Named parameters the header declares (`params: a, b` or `none`). */
  params: string[];
  /** The tables and views the header says it reads (`reads: a, b`, continued on indented lines). */
  reads: string[];
}

const NAME = /^[a-z][a-z0-9_]*$/;

/** Names of every query in queries/, sorted. */
export function listQueries(): string[] {
  return readdirSync(queriesDir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.slice(0, -4))
    .filter((n) => NAME.test(n))
    .sort();
}

/** Read queries/<name>.sql. Throws InputError when there is no such query. */
export function readQuery(name: string): Query {
  const file = join(queriesDir, `${name}.sql`);
  if (!NAME.test(name) || !existsSync(file)) {
    throw new InputError(`no query named "${name}"`, `the queries are: ${listQueries().join(', ')}`);
  }
  const sql = readFileSync(file, 'utf8');
  const header = sql
    .split('\n')
    .filter((l) => l.startsWith('--'))
    .map((l) => l.replace(/^--\s?/, ''));
  // The first paragraph: a summary may go on over lines, up to the header's first blank line.
  const end = header.findIndex((l) => l.trim() === '' || /^(reads|params|returns|order):/.test(l));
  const summary = header
    .slice(0, end < 0 ? 1 : end)
    .join(' ')
    .replace(new RegExp(`^${name}:\\s*`), '')
    .replace(/\s+/g, ' ')
    .trim();
  const paramLine = header.find((l) => /^params:/.test(l)) ?? 'params: none';
  const declared = paramLine.replace(/^params:\s*/, '').trim();
  const params = declared === 'none' || declared === '' ? [] : declared.split(/\s*,\s*/).map((p) => p.split(/\s/)[0]!);
  // `reads:` may go on over indented lines.
  const at = header.findIndex((l) => /^reads:/.test(l));
  const readLines = at < 0 ? [] : [header[at]!.replace(/^reads:/, '')];
  for (let i = at + 1; at >= 0 && i < header.length && /^\s/.test(header[i]!); i++) readLines.push(header[i]!);
  // A table may be followed by what it is, in parentheses: `conjunct_results (filled by …)`.
  const reads = readLines
    .join(',')
    .split(',')
    .map((t) => t.trim().split(/[\s(]/)[0]!)
    .filter(Boolean);
  return { name, source: `queries/${name}.sql`, sql, summary, params, reads };
}

const internal = new Map<string, string>();

/** The text of sql/<path>.sql, the internal SQL (read once per process). */
export function readSql(path: string): string {
  let text = internal.get(path);
  if (text === undefined) {
    text = readFileSync(join(sqlDir, `${path}.sql`), 'utf8');
    internal.set(path, text);
  }
  return text;
}
