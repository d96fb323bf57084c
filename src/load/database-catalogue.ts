/**
 * What a database file's catalog holds, held to what this build's load makes: the tables it builds,
 * each defined exactly as sql/database-layout.sql says (a test holds that file to a fresh load), and
 * nothing else. A catalog changed without a row changed (a column's collation, type, default) makes
 * the same rows read otherwise, so it is refused as rows written after load are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqlDir } from '../base/paths.js';
import type { Database } from '../db/database.js';
import { readSql } from '../db/queries.js';
import { VIEWS } from '../db/views.js';

/** What load builds into a database: its documented tables, the two the loader keeps beside them, and its record. */
const BUILT = new Set(['main.omg_meta', 'main.source_files', 'main.registration_records', ...VIEWS.map((v) => `main.${v.name}`)]);

/** One object of a database's catalog: its name (sql/database-tables.sql) and, for a table, its definition. */
export interface CatalogEntry {
  name: string;
  definition: string | null;
}

export async function readCatalog(db: Database): Promise<CatalogEntry[]> {
  return (await db.query(readSql('database-tables'))).rows.map((r) => ({
    name: String(r.name),
    definition: r.definition === null ? null : String(r.definition),
  }));
}

/**
 * What the catalog holds that load does not build, whatever omg_meta says: a macro in main shadows
 * a function (`sum`) in every query, and a view can stand in for a table.
 */
export function notBuilt(catalog: CatalogEntry[]): string[] {
  return catalog.map((e) => e.name).filter((n) => !BUILT.has(n));
}

const CREATE = /^CREATE TABLE (\w+)\(/;
let layout: Map<string, string> | undefined;

/** sql/database-layout.sql: each table load builds, by name, with its CREATE TABLE as DuckDB writes it. */
function builtLayout(): Map<string, string> {
  layout ??= new Map(
    readFileSync(join(sqlDir, 'database-layout.sql'), 'utf8')
      .split('\n')
      .filter((l) => CREATE.test(l))
      .map((l) => [`main.${CREATE.exec(l)![1]}`, l]),
  );
  return layout;
}

/** The parts of a CREATE TABLE between its parentheses (columns, then constraints), split at its top-level commas. */
function parts(sql: string): string[] {
  const body = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')'));
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    // A quote doubled inside a quoted name or string closes and opens it again: the split is the same.
    if (quote) quote = c === quote ? '' : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  return [...out, body.slice(start).trim()];
}

/** The column a part defines: its first word, unquoted. */
const columnOf = (part: string) => /^"((?:[^"]|"")*)"/.exec(part)?.[1]?.replaceAll('""', '"') ?? part.split(' ')[0]!;

/**
 * How the tables in `catalog` differ from what this build's load makes, naming the first table.column
 * that does, or null when none does (what notBuilt finds is not looked at here). `only`: those tables.
 */
export function layoutDiffers(catalog: CatalogEntry[], only?: string[]): string | null {
  const tables = new Map(catalog.filter((e) => e.definition !== null).map((e) => [e.name, e.definition!]));
  for (const [name, want] of builtLayout()) {
    if (only && !only.includes(name)) continue;
    const table = name.slice('main.'.length);
    const has = tables.get(name);
    if (has === undefined) return `it has no table ${table}, which load makes`;
    if (has === want) continue;
    const [a, b] = [parts(has), parts(want)];
    const i = a.findIndex((p, n) => p !== b[n]);
    if (i < 0 && a.length < b.length) return `its table ${table} lacks ${b[a.length]}, which load makes`;
    if (i < 0) return `its table ${table} is not as load makes it (${has})`;
    if (i >= b.length) return `its table ${table} holds ${a[i]}, which load does not make`;
    return `its column ${table}.${columnOf(b[i]!)} is ${a[i]}, not ${b[i]} as load makes it`;
  }
  return null;
}
