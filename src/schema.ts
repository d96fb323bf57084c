/**
 * Record validation in one SQL pass per record kind. A schema names each key, the JSON kinds it may
 * take, whether it is required, and optional extra checks written in SQL over the row's `json`.
 * The first problem (by file, then line) becomes an InputError naming `file:line`; unknown keys
 * are never a problem (they are kept in the loaded tables).
 */
import { Database, sqlString } from './db.js';
import { InputError } from './errors.js';
import { physicalLine } from './jsonl.js';
import { displayPath } from './paths.js';

export type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** DuckDB's json_type() names for each kind. */
const DUCK: Record<JsonKind, string[]> = {
  string: ['VARCHAR'],
  integer: ['UBIGINT', 'BIGINT'],
  number: ['UBIGINT', 'BIGINT', 'DOUBLE'],
  boolean: ['BOOLEAN'],
  object: ['OBJECT'],
  array: ['ARRAY'],
  null: ['NULL'],
};

export interface Field {
  key: string;
  kinds: JsonKind[];
  /** Default true. An optional key may be absent; when present it must have one of `kinds`. */
  required?: boolean;
}

export interface Check {
  /** SQL over `json` that is TRUE when the record is bad. Runs only once the key types are right. */
  bad: string;
  /** The problem, in words. */
  why: string;
}

export interface RecordSchema {
  /** What a record is, for messages: `a results.jsonl row`. */
  what: string;
  fields: Field[];
  checks?: Check[];
  /** What to do about a problem. */
  hint: string;
}

/** A SQL expression naming the JSON kind of json_type() result `t`, for messages. */
function kindName(t: string): string {
  return `case ${t} when 'VARCHAR' then 'a string' when 'UBIGINT' then 'an integer' when 'BIGINT' then 'an integer'
    when 'DOUBLE' then 'a number' when 'BOOLEAN' then 'a boolean' when 'OBJECT' then 'an object'
    when 'ARRAY' then 'an array' when 'NULL' then 'null' else lower(${t}) end`;
}

function article(kinds: JsonKind[]): string {
  const words = kinds.map((k) =>
    k === 'null' ? 'null' : k === 'integer' || k === 'object' || k === 'array' ? `an ${k}` : `a ${k}`,
  );
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The SQL CASE that yields the first problem of a row, or NULL. */
export function problemExpr(schema: RecordSchema): string {
  const arms: string[] = [
    `when json_type(json) <> 'OBJECT' then 'not a JSON object (got ' || ${kindName('json_type(json)')} || ')'`,
  ];
  for (const f of schema.fields) {
    const path = sqlString(`$."${f.key}"`);
    const t = `json_type(json, ${path})`;
    const allowed = f.kinds.flatMap((k) => DUCK[k]).map(sqlString).join(', ');
    if (f.required !== false) {
      arms.push(`when ${t} is null then ${sqlString(`missing required key "${f.key}"`)}`);
    }
    arms.push(
      `when ${t} not in (${allowed}) then ${sqlString(`"${f.key}" must be ${article(f.kinds)}, got `)} || ${kindName(t)}` +
        ` || ' ' || left(json_extract(json, ${path})::VARCHAR, 60)`,
    );
  }
  for (const c of schema.checks ?? []) arms.push(`when coalesce(${c.bad}, false) then ${sqlString(c.why)}`);
  return `case ${arms.join('\n    ')} end`;
}

/**
 * Validate the rows of `table` (as made by readJsonl) that satisfy `where`. Throws an InputError
 * for the first bad record, naming its file and physical line.
 */
export async function validate(
  db: Database,
  table: string,
  schema: RecordSchema,
  where = 'true',
): Promise<void> {
  const res = await db.query(
    `select file, rec, problem from (
       select file, rec, ${problemExpr(schema)} as problem from ${table} where ${where}
     ) where problem is not null order by file, rec limit 1`,
    undefined,
    `validating ${schema.what}`,
  );
  const bad = res.rows[0];
  if (bad) throw recordError(String(bad.file), Number(bad.rec), `${schema.what}: ${bad.problem}`, schema.hint);
}

/** An InputError for record `rec` of `file`, at its physical line. */
export function recordError(file: string, rec: number, what: string, hint?: string): InputError {
  return new InputError(`${displayPath(file)}:${physicalLine(file, rec)}: ${what}`, hint);
}
