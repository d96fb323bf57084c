/**
 * Record validation in one SQL pass per record kind. A schema names each key, the JSON kinds it may
 * take, whether it is required, and optional extra checks written in SQL over the row's `json`.
 * The problems of the first bad file become one InputError, a line for each naming `file:line`;
 * unknown keys are never a problem (they are kept in the loaded tables).
 */
import { type Database, sqlString } from '../db/database.js';
import { InputError } from '../base/errors.js';
import { lineOf } from './jsonl.js';
import { displayPath } from '../base/paths.js';
import { quoted, SHOWN } from '../base/quoted.js';

export type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The largest integer the tables' BIGINT columns hold; DuckDB types 2^63 to 2^64 - 1 UBIGINT. */
const MAX_BIGINT = '9223372036854775807';

/** Whether a field takes integers alone: a number past MAX_BIGINT is then refused. */
const bigintOnly = (f: Field): boolean => f.kinds.includes('integer') && !f.kinds.includes('number');

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

/** A key of the items of an array a record holds, as a record's Field is; a string may be held to `oneOf`. */
export interface ItemField extends Field {
  oneOf?: string[];
}

/** The items of an array a record holds, each checked as a record is: the message names the item and its key. */
export interface Items {
  /** The array, as messages name it: `markers`, `envelope.permission_denials`. */
  name: string;
  /** SQL over the row's `json` (or `env`) giving the array; anything but an array is left to other checks. */
  array: string;
  fields: ItemField[];
}

export interface Check {
  /** SQL over `json` that is TRUE when the record is bad. Runs only once the key types are right. */
  bad: string;
  /** The items this check holds to their fields (itemsCheck): the message is the first bad item's problem. */
  items?: Items;
  /** The problem, in words. */
  why: string;
  /** SQL over `json` whose value the message quotes after `why`. */
  value?: string;
  /** What to do, when it is not the schema's hint. */
  hint?: string;
}

export interface RecordSchema {
  /** What a record is, for messages: `a results.jsonl row`. */
  what: string;
  fields: Field[];
  /** The keys of `json` that the checks read; the checks see the record cut down to these (and the integer fields). */
  reads?: string[];
  /** The keys of the row's `env` (a results row's envelope) that the checks read; the rest are dropped before they run. */
  envelope?: string[];
  checks?: Check[];
  /** What to do about a problem. */
  hint: string;
}

/** What each json_type() result is called in messages. */
const KIND_WORDS: Record<string, string> = {
  VARCHAR: 'a string',
  UBIGINT: 'an integer',
  BIGINT: 'an integer',
  DOUBLE: 'a number',
  BOOLEAN: 'a boolean',
  OBJECT: 'an object',
  ARRAY: 'an array',
  NULL: 'null',
};

/** json_type() result `t` in words, for messages: `an array`. */
export function kindWord(t: string): string {
  return KIND_WORDS[t] ?? t.toLowerCase();
}

/** A SQL expression naming the JSON kind of json_type() result `t`, for messages (kindWord in SQL). */
function kindName(t: string): string {
  return `case ${t} ${Object.entries(KIND_WORDS)
    .map(([k, w]) => `when '${k}' then '${w}'`)
    .join(' ')} else lower(${t}) end`;
}

/** `a, b or c`. */
const orList = (words: string[]): string => (words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

function article(kinds: JsonKind[]): string {
  return orList(kinds.map((k) => (k === 'null' ? 'null' : k === 'integer' || k === 'object' || k === 'array' ? `an ${k}` : `a ${k}`)));
}

/**
 * The SQL that yields the codes of every problem of a row, a list (empty when it has none):
 * `object`; else `missing:<i>` or `type:<i>` for each field i that has one; else, once the key
 * types are right, `check:<j>` for the first check that fails. It reads the row's key types from
 * `kinds`, a list computed once per row by `kindsExpr`, and its root's kind from `root`. Codes
 * keep the expression small; messages are built on the error path only (`describe`).
 */
export function problemExpr(schema: RecordSchema): string {
  const fields = schema.fields.map((f, i) => {
    const t = `kinds[${i + 1}]`;
    const allowed = f.kinds
      .flatMap((k) => DUCK[k])
      .map(sqlString)
      .join(', ');
    const missing = f.required !== false ? `when ${t} is null then 'missing:${i}' ` : '';
    const big = bigintOnly(f) ? ` or (${t} = 'UBIGINT' and (json ->> ${sqlString(`$."${f.key}"`)})::UBIGINT > ${MAX_BIGINT})` : '';
    return `case ${missing}when ${t} not in (${allowed})${big} then 'type:${i}' end`;
  });
  const checks = (schema.checks ?? []).map((c, j) => `case when coalesce(${c.bad}, false) then 'check:${j}' end`);
  const list = (items: string[]) => `list_filter([${items.join(', ')}]::VARCHAR[], x -> x is not null)`;
  // A CASE evaluates a branch only for the rows that reach it: checks see only well-typed records.
  // Only the first failing check: a later one may follow from it (a cost that is not a number is
  // not "negative" either).
  return `case when root <> 'OBJECT' then ['object'] when len(${list(fields)}) > 0 then ${list(fields)} else ${list(checks)}[1:1] end`;
}

/**
 * JSON object `column` cut down to `keys` (those present, in that order), from one parse of it:
 * json_extract with a list of paths reads them all at once. NULL stays NULL.
 */
function slimExpr(column: string, keys: string[]): string {
  if (keys.length === 0) return `case when ${column} is not null then '{}'::JSON end`;
  const paths = pathsOf(keys);
  const kept = `list_filter(list_zip([${keys.map(sqlString).join(', ')}], json_extract(${column}, [${paths}])), e -> e[2] is not null)`;
  return `case when ${column} is not null then to_json(map_from_entries(${kept})) end`;
}

/** The words for a problem code of `schema`, looking at the offending record only. */
async function describe(db: Database, table: string, file: string, rec: number, schema: RecordSchema, code: string): Promise<string> {
  const [kind, index] = code.split(':');
  if (kind === 'check') {
    const c = schema.checks![Number(index)]!;
    if (c.items) return describeItem(db, table, file, rec, c.items);
    if (!c.value) return c.why;
    const shown = await db.query(`select (${c.value})::VARCHAR as v from ${table} where file = $file and rec = $rec`, { file, rec });
    return `${c.why} ${JSON.stringify(quoted(shown.rows[0]!.v))}`;
  }
  const f = kind === 'object' ? undefined : schema.fields[Number(index)]!;
  if (kind === 'missing') return `missing required key "${f!.key}"`;
  const path = f ? sqlString(`$."${f.key}"`) : `'$'`;
  const got = (
    await db.query(
      `select ${kindName(`json_type(json, ${path})`)} as kind, left(json_extract(json, ${path})::VARCHAR, ${SHOWN + 1}) as value
       from ${table} where file = $file and rec = $rec`,
      { file, rec },
    )
  ).rows[0]!;
  if (!f) return `not a JSON object (got ${got.kind})`;
  // Past 2^64 - 1 DuckDB types an integer DOUBLE: written in digits, it is still an integer too large.
  const tooLarge = got.kind === 'an integer' || (got.kind === 'a number' && /^-?\d+$/.test(String(got.value)));
  const value = quoted(got.value);
  if (bigintOnly(f) && tooLarge) return `"${f.key}" must be ${outOfRange(String(got.value))}, got ${value}`;
  return mustBe(f, String(got.kind), value);
}

/** A key of the wrong kind, in words: `"seq" must be an integer, got a string "2"`. */
const mustBe = (f: Field, kind: string, value: unknown): string =>
  `"${f.key}" must be ${article(f.kinds)}, got ${kind === 'null' ? 'null' : `${kind} ${value}`}`;

/** The SQL giving the first problem of item `x` as a code (`object`, `missing:<i>`, `type:<i>`, `oneOf:<i>`), or NULL. */
function itemProblem(fields: ItemField[]): string {
  const each = fields.map((f, i) => {
    const path = sqlString(`$."${f.key}"`);
    const t = `json_type(x, ${path})`;
    const allowed = f.kinds
      .flatMap((k) => DUCK[k])
      .map(sqlString)
      .join(', ');
    const missing = f.required !== false ? `when ${t} is null then 'missing:${i}' ` : '';
    const oneOf = f.oneOf
      ? ` when ${t} = 'VARCHAR' and (x ->> ${path}) not in (${f.oneOf.map(sqlString).join(', ')}) then 'oneOf:${i}'`
      : '';
    return `case ${missing}when ${t} not in (${allowed}) then 'type:${i}'${oneOf} end`;
  });
  // A JSON null item reads as SQL NULL, which no test of its type would catch.
  return `case when x is null or json_type(x) <> 'OBJECT' then 'object' else coalesce(${each.join(', ')}) end`;
}

/** A check that every item of an array is an object whose keys have their kinds (and values, for `oneOf`). */
export function itemsCheck(items: Items): Check {
  const list = `from_json(${items.array}, '["JSON"]')`;
  return {
    bad: `case when json_type(${items.array}) = 'ARRAY' then len(list_filter(${list}, x -> (${itemProblem(items.fields)}) is not null)) > 0 end`,
    why: `every "${items.name}" item must be an object with ${items.fields.map((f) => `"${f.key}"`).join(', ')} of their kinds`,
    items,
  };
}

/** The first bad item of a record's array, in words: `"markers" item 2: "dir" must be "REPO", "HOME" or "TMP", got "ELSEWHERE"`. */
async function describeItem(db: Database, table: string, file: string, rec: number, items: Items): Promise<string> {
  const first = (
    await db.query(
      `select i, p, x::VARCHAR as item, ${kindName('json_type(x)')} as kind from (
         select i, x, ${itemProblem(items.fields)} as p from (
           select unnest(l) as x, generate_subscripts(l, 1) as i
           from (select from_json(${items.array}, '["JSON"]') as l from ${table} where file = $file and rec = $rec)))
       where p is not null order by i limit 1`,
      { file, rec },
    )
  ).rows[0]!;
  const at = `"${items.name}" item ${first.i}`;
  const [kind, index] = String(first.p).split(':');
  if (kind === 'object') return `${at}: not a JSON object (got ${first.kind ?? 'null'})`;
  const f = items.fields[Number(index)]!;
  if (kind === 'missing') return `${at}: missing required key "${f.key}"`;
  const path = sqlString(`$."${f.key}"`);
  const got = (
    await db.query(
      `select ${kindName(`json_type($item::JSON, ${path})`)} as kind, left(json_extract($item::JSON, ${path})::VARCHAR, ${SHOWN + 1}) as value`,
      { item: String(first.item) },
    )
  ).rows[0]!;
  const value = quoted(got.value);
  if (kind === 'type') return `${at}: ${mustBe(f, String(got.kind), value)}`;
  return `${at}: "${f.key}" must be ${orList(f.oneOf!.map((v) => JSON.stringify(v)))}, got ${value}`;
}

/** What an integer written in digits past BIGINT's range must be: it is an integer still, too large or too small. */
export const outOfRange = (digits: string) => `an integer ${digits.startsWith('-') ? 'of at least -2^63' : 'of at most 2^63 - 1'}`;

/** The JSON paths of `keys`, in order, as a SQL list's items. */
const pathsOf = (keys: string[]): string => keys.map((k) => sqlString(`$."${k}"`)).join(', ');

/** The list of json_type() results for a schema's keys, in field order. */
export function kindsExpr(schema: RecordSchema): string {
  return `json_type(json, [${pathsOf(schema.fields.map((f) => f.key))}])`;
}

/** How many problems of one file an error lists; the rest are counted. */
export const MAX_PROBLEMS = 20;

/**
 * Validate the rows of `table` (as made by readJsonl) against several schemas at once, each for
 * the rows its `where` selects, in one query. Throws an InputError for the first file (by path)
 * with a bad record: each problem of its records, by line, up to MAX_PROBLEMS, each naming the
 * file and physical line.
 */
export async function validateAll(db: Database, table: string, parts: { schema: RecordSchema; where: string }[]): Promise<void> {
  if (parts.length === 0) return;
  // Each record is parsed here three times: for its root's kind, its keys' kinds, and the keys its
  // checks read (a small object, as the envelope they read is). Each check had parsed the whole
  // record again, some twice, which cost seconds for a record of megabytes.
  const slim = parts
    .map((p, i) => {
      const json = slimExpr('json', [...new Set([...(p.schema.reads ?? []), ...p.schema.fields.filter(bigintOnly).map((f) => f.key)])]);
      const env = p.schema.envelope ? `, ${slimExpr('env', p.schema.envelope)} as env` : '';
      return `select * exclude (json${env && ', env'}), ${i} as part, json_type(json) as root, ${kindsExpr(p.schema)} as kinds, ${json} as json${env} from ${table} where ${p.where}`;
    })
    .join(' union all by name ');
  await db.exec(`create or replace temp table validating as ${slim}`, undefined, 'validating records');
  const union = parts
    .map((p, i) => `select file, rec, ${i} as part, ${problemExpr(p.schema)} as problems from validating where part = ${i}`)
    .join('\n     union all\n     ');
  let res: Awaited<ReturnType<Database['query']>>;
  try {
    // Materialized, so that each problem list is made once: a filter on it would make it again.
    res = await db.query(
      `with checked as materialized (${union}),
       bad as (select file, rec, part, unnest(problems) as problem, generate_subscripts(problems, 1) as k from checked where len(problems) > 0)
       select file, rec, part, problem, count(*) over () as n from bad where file = (select min(file) from bad)
       order by rec, part, k limit ${MAX_PROBLEMS}`,
      undefined,
      'validating records',
    );
  } finally {
    await db.exec('drop table validating');
  }
  if (res.rows.length === 0) return;
  const errors = [];
  for (const bad of res.rows) {
    const schema = parts[Number(bad.part)]!.schema;
    const what = await describe(db, table, String(bad.file), Number(bad.rec), schema, String(bad.problem));
    const [kind, index] = String(bad.problem).split(':');
    const hint = (kind === 'check' && schema.checks![Number(index)]!.hint) || schema.hint;
    errors.push(recordError(String(bad.file), Number(bad.rec), `${schema.what}: ${what}`, hint));
  }
  const [first, ...rest] = errors;
  const more = Number(res.rows[0]!.n) - errors.length;
  const file = displayPath(String(res.rows[0]!.file));
  throw new InputError(first!.message, first!.hint, {
    details: [...rest.map((e) => e.message), ...(more > 0 ? [`${file}: ${more} more problem(s) not shown: mend these and run again`] : [])],
  });
}

export function recordError(file: string, rec: number, what: string, hint?: string): InputError {
  return new InputError(`${lineOf(file, rec)}: ${what}`, hint);
}
