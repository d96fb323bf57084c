/**
 * What a registered trigger or check may be (analysis/registration.ts runs them): one SELECT, as
 * DuckDB parses it, that reads only the documented views and its own CTEs, calls no function whose
 * value is not the evidence's, and sees its own probe's rows and its spawns' transcripts.
 */
import { join } from 'node:path';
import { InputError, withoutSettingAdvice } from '../base/errors.js';
import { type Database, sqlIdentifier, sqlString } from '../db/database.js';
import { findTableRef, identifier, isNode, type Node, tableName, tablesRead } from '../db/table-refs.js';
import { VIEWS } from '../db/views.js';

/** A registered file's kind, and the one row it returns. */
export interface Spec {
  what: string;
  columns: [string, 'BOOLEAN' | 'VARCHAR'][];
}

/** What a registered file may read: the documented views, unqualified or in `main`. */
const READABLE = new Set(VIEWS.map((v) => v.name));

/** Table functions that read no file and no catalog, only the values they are given. */
const TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree']);

/**
 * Kinds of table reference in DuckDB's syntax tree that read only what they name. Any other
 * (SHOW_REF for DESCRIBE, SHOW and SUMMARIZE, COLUMN_DATA, …) is refused.
 */
const TABLE_REFS = new Set(['BASE_TABLE', 'SUBQUERY', 'JOIN', 'TABLE_FUNCTION', 'EXPRESSION_LIST', 'EMPTY', 'EMPTY_FROM', 'PIVOT']);

/** What a table reference in a registered file's syntax tree reads that it may not, in words; undefined when it may. */
function forbidden(ref: Node, scope: ReadonlySet<string>): string | undefined {
  if (!TABLE_REFS.has(String(ref.type))) return 'the output of DESCRIBE, SHOW or SUMMARIZE, which is the catalog';
  if (ref.type === 'BASE_TABLE') {
    const [catalog, schema, table] = tableName(ref);
    const name = identifier(table);
    const plain = catalog === '' && schema === '';
    const ok = catalog === '' && (schema === '' || identifier(schema) === 'main') && (READABLE.has(name) || (plain && scope.has(name)));
    if (!ok) return `"${[catalog, schema, table].filter(Boolean).join('.')}", which is not a documented view`;
  }
  if (ref.type === 'TABLE_FUNCTION') {
    const fn = isNode(ref.function) ? ref.function : {};
    const name = String(fn.function_name ?? '');
    if (!TABLE_FUNCTIONS.has(identifier(name)) || fn.schema || fn.catalog)
      return `${name}(), a table function that may read files or the catalog`;
  }
  return undefined;
}

/**
 * Functions whose answer is not the evidence's: it changes from run to run (random, uuid, nextval,
 * now, today, …: DuckDB's VOLATILE and CONSISTENT_WITHIN_QUERY functions), or from machine to
 * machine (settings, the version, the database's name). With them a verdict could differ for the
 * same evidence; the names after them are what DuckDB reads as such a call without parentheses,
 * and DuckDB's macros over any of them (ago, pg_postmaster_start_time, pg_sleep). A test holds the list
 * to DuckDB's catalogue of functions.
 */
export const UNSTABLE = new Set(
  (
    'current_connection_id current_query current_query_id current_transaction_id currval gen_random_uuid nextval random ' +
    'setseed sleep_ms stats uuid uuidv4 uuidv7 write_log current_database current_date current_schema current_schemas ' +
    'get_current_time get_current_timestamp in_search_path now today transaction_timestamp txid_current current_setting ' +
    'version current_catalog current_role current_user session_user user getvariable getenv pg_conf_load_time ' +
    'current_timestamp current_time localtimestamp localtime current_localtimestamp current_localtime ' +
    'ago pg_postmaster_start_time pg_sleep'
  ).split(' '),
);

/** The first call in a syntax tree of a function UNSTABLE names (or such a name standing alone, or a sample), in words. */
function unstableCall(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = unstableCall(item);
      if (found) return found;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  // USING SAMPLE and TABLESAMPLE draw rows at random.
  if (isNode(node.sample)) return 'a sample (USING SAMPLE, TABLESAMPLE)';
  if (node.class === 'FUNCTION' && UNSTABLE.has(identifier(String(node.function_name)))) return `${String(node.function_name)}()`;
  const names = node.class === 'COLUMN_REF' && Array.isArray(node.column_names) ? node.column_names : [];
  if (names.length === 1 && UNSTABLE.has(identifier(String(names[0])))) return String(names[0]);
  for (const value of Object.values(node)) {
    const found = unstableCall(value);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuse `sql` unless DuckDB parses it as exactly one SELECT that reads only documented views;
 * returns the views it reads. Runs in a sandbox: nothing here binds or runs the statement.
 */
export async function mustBeAQuestion(box: Database, sql: string, where: string, spec: Spec): Promise<string[]> {
  const hint = `write the ${spec.what} as one SELECT over the views omg-evidence schema lists, returning ${spec.columns.map((c) => c[0]).join(', ')}`;
  const parsed = await box.parse(sql);
  if (parsed.error && parsed.error_type === 'parser') {
    // DuckDB's advice to raise a setting (max_expression_depth) cannot be taken: what can is said.
    const [said, fix] = withoutSettingAdvice(parsed.error_message);
    throw new InputError(`${where}: does not parse: ${said}`, fix ?? hint);
  }
  if (parsed.error && !parsed.error_message.startsWith('Only SELECT statements')) {
    // A SELECT that DuckDB cannot write out as a syntax tree cannot be checked, so it is not run.
    throw new InputError(`${where}: a ${spec.what} must be a SELECT DuckDB can inspect; it says: ${parsed.error_message}`, hint);
  }
  if (parsed.error) {
    // Some statement is not a SELECT: name what DuckDB prepares each one as. A lone one it
    // prepares as a SELECT is a PRAGMA (DuckDB rewrites those that return rows); one that does not
    // prepare alone (COPY to a file, once sealed) is named for what it is not.
    const types = (await box.statementTypes(sql)).map((t) => (t === 'UNKNOWN' ? 'non-SELECT' : t));
    // DuckDB runs a PIVOT without IN (…) as a CREATE of its values, then the query: name the cause.
    const pivot = types[0] === 'CREATE' && /\bpivot\b/i.test(sql) && !/\bcreate\b/i.test(sql);
    const what =
      types.length === 1
        ? `one ${types[0] === 'SELECT' ? 'PRAGMA' : types[0]} statement`
        : `${types.length} statements (${types.join(', ')})${pivot ? ': a PIVOT needs its values named, PIVOT … ON col IN (…)' : ''}`;
    throw new InputError(`${where}: a ${spec.what} is exactly one SELECT statement; this file holds ${what}`, hint);
  }
  const n = parsed.statements.length;
  if (n !== 1) {
    const what = n === 0 ? 'no SQL statement' : `${n} statements (${Array(n).fill('SELECT').join(', ')})`;
    throw new InputError(`${where}: a ${spec.what} is exactly one SELECT statement; this file holds ${what}`, hint);
  }
  const why = findTableRef(parsed.statements[0], forbidden);
  if (why) throw new InputError(`${where}: a ${spec.what} reads only the documented views; this one reads ${why}`, hint);
  const call = unstableCall(parsed.statements[0]);
  if (call) {
    throw new InputError(
      `${where}: a ${spec.what} answers from the evidence alone; this one uses ${call}, whose value changes from run to run or machine to machine`,
      `remove it: the same evidence must give the same verdict`,
    );
  }
  return tablesRead(parsed.statements);
}

/** The views that hold several probes' rows (a `probe` column): what scopeToProbe narrows. */
const PROBE_VIEWS = new Set(VIEWS.filter((v) => 'probe' in v.columns).map((v) => v.name));

/**
 * Columns that say where the evidence sits on this machine, not what it holds: a registered file
 * does not see them, or a copy of the same evidence elsewhere could be given another verdict.
 */
const WHERE_IT_SITS: Record<string, string[]> = { transcript_files: ['abs', 'dir'] };

/** The views of the transcripts: what scopeToProbe narrows to the sessions of a probe's spawns. */
const TRANSCRIPT_VIEWS = new Set(VIEWS.filter((v) => v.source === 'transcripts').map((v) => v.name));

/**
 * In a sandbox, the views `read` as a registered file of `probe` sees them (temporary, ended with the
 * sandbox): the probe views with its rows alone (when `several` probes are loaded), the transcript
 * views with its spawns' sessions alone (transcript_files: the files holding a line of one), so that
 * a check gives its probe the same answer whichever other probes are loaded, and no view with
 * WHERE_IT_SITS's columns.
 */
export async function scopeToProbe(box: Database, of: { id: string; dir: string }, several: boolean, read: string[]): Promise<void> {
  const probe = of.id;
  const views = read.filter((t) => (several && PROBE_VIEWS.has(t)) || TRANSCRIPT_VIEWS.has(t) || t in WHERE_IT_SITS);
  if (views.length === 0) return;
  // The database's own name: `main` alone would name the temporary catalog's schema first.
  const catalog = sqlIdentifier(String((await box.query('select current_database() as name')).rows[0]!.name));
  const main = (v: string) => `${catalog}.main.${sqlIdentifier(v)}`;
  const sessions = `(select session_id from ${main('spawns')} where probe = ${sqlString(probe)})`;
  for (const v of views) {
    const hidden = WHERE_IT_SITS[v];
    const columns = hidden ? `* exclude (${hidden.map(sqlIdentifier).join(', ')})` : '*';
    let rows = '';
    if (several && PROBE_VIEWS.has(v)) rows = ` where probe = ${sqlString(probe)}`;
    else if (v === 'transcript_files') {
      // A file is named relative to its folder: with several folders loaded (each probe's own, the
      // loader holding each spawn's lines to its probe's), the probe's own folder's alone.
      const own = sqlString(join(of.dir, 'transcripts'));
      rows =
        ` where file in (select file from ${main('transcript_lines')} where session_id in ${sessions})` +
        ` and (dir = ${own} or (select count(distinct dir) from ${main(v)}) = 1)`;
    } else if (TRANSCRIPT_VIEWS.has(v)) rows = ` where session_id in ${sessions}`;
    await box.exec(`create temp view ${sqlIdentifier(v)} as select ${columns} from ${main(v)}${rows}`);
  }
}
