/**
 * DuckDB's values as omg-evidence hands them on: plain JSON-safe rows (BIGINT a number when it is a
 * safe integer, else a decimal string; nested lists and structs plain arrays and objects), and each
 * value's JSON text for the user's SQL in json formats.
 */
import {
  type DuckDBDateValue,
  type DuckDBDecimalValue,
  type DuckDBBlobValue,
  type DuckDBDataChunk,
  type DuckDBIntervalValue,
  type DuckDBListValue,
  type DuckDBMapValue,
  type DuckDBResultReader,
  type DuckDBStructValue,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBUnionValue,
  type DuckDBValue,
  type DuckDBValueConverter,
  type JS,
  JSDuckDBValueConverter,
} from '@duckdb/node-api';

import type { Row } from '../base/shapes.js';
import { floatText } from '../base/float-text.js';
import { dateText, infinity, isoDuration, isoOffset, type Timestamp, timestampDuckText, timestampText } from './time-text.js';

export type { Row };

/**
 * Types whose node-api JS form is a BigInt or holds one (TIME's microseconds; INTERVAL and TIME_TZ
 * as objects with a BigInt inside) or raw bytes (BIT): JSON.stringify throws on the first, and
 * neither reads as the value. They are given as the string `sql -f json` writes (jsonText).
 */
const AS_JSON_TEXT = new Set<number>([
  DuckDBTypeId.TIME,
  DuckDBTypeId.TIME_NS,
  DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.INTERVAL,
  DuckDBTypeId.BIT,
]);

const DATES = new Set<number>([
  DuckDBTypeId.DATE,
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
]);

/**
 * A value as plain, JSON-safe JS, at any depth (inside lists, structs and maps too): BIGINT/HUGEINT
 * a number when safe, else a decimal string; TIME, INTERVAL and BIT as `AS_JSON_TEXT` says; a date
 * or timestamp a Date, or its text when a Date cannot hold it (infinity); the rest as node-api's JS form.
 */
export const toPlain: DuckDBValueConverter<JS> = (value, type) => {
  if (value === null) return null;
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (AS_JSON_TEXT.has(type.typeId)) return JSON.parse(jsonText(value, type)) as string;
  // A DECIMAL whose digits a double does not print back (past 2^53, or cents past about 2^45) keeps its
  // decimal string, as a BIGINT past 2^53 does: $225179981368524.83 had printed as ...524.84.
  if (type.typeId === DuckDBTypeId.DECIMAL) {
    const exact = (value as DuckDBDecimalValue).toString();
    const n = Number(exact);
    const shown = String(n);
    const same = shown.includes('e')
      ? n.toFixed((value as DuckDBDecimalValue).scale) === exact
      : shown === (exact.includes('.') ? exact.replace(/\.?0+$/, '') : exact);
    return same ? n : exact;
  }
  if (DATES.has(type.typeId)) {
    // Infinity is its word: a TIMESTAMP_NS at infinity would be a Date of 2262, and node-api throws for a
    // date outside a Date's range (a DATE's infinity, year 294000): one value would fail the query.
    const word = infinity(value as DuckDBDateValue | Timestamp);
    if (word) return word;
    try {
      return JSDuckDBValueConverter(value, type, toPlain);
    } catch {
      return JSON.parse(jsonText(value, type)) as string;
    }
  }
  // toPlain, not node-api's converter, for what is nested: a BIGINT in a list is a number too.
  return JSDuckDBValueConverter(value, type, toPlain);
};

/** Scalar types whose values to_json writes as the very JSON value that toPlain gives. */
const JSON_EXACT = new Set<number>([
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
]);

/**
 * Whether every value of `type` reads back from DuckDB's to_json text as what toPlain would give:
 * strings, booleans and integers, and lists and structs of them. Not JSON (to_json would embed it
 * rather than quote it), nor floats (NaN), decimals, dates or anything else.
 */
export function jsonExact(type: DuckDBType): boolean {
  if (type.alias !== undefined) return false;
  if (type.typeId === DuckDBTypeId.LIST) return jsonExact(type.valueType);
  if (type.typeId === DuckDBTypeId.STRUCT) return type.entryTypes.every(jsonExact);
  return JSON_EXACT.has(type.typeId);
}

/** An integer that JSON.parse might round (2^53 has 16 digits): its result is read value by value instead. */
export const UNSAFE_INTEGER = /\d{16}/;

/**
 * What of a result a JavaScript object cannot hold as a key, or null: a struct field named
 * `__proto__` (node-api's struct value sets the prototype instead, and the field is lost) and,
 * when the rows are objects (`columns` given), such a column (arquero then loses every row).
 */
export function protoName(types: DuckDBType[], columns?: string[]): string | null {
  if (columns?.includes('__proto__')) return 'a column';
  const inType = (t: DuckDBType): boolean => {
    switch (t.typeId) {
      case DuckDBTypeId.STRUCT:
        return t.entryNames.includes('__proto__') || t.entryTypes.some(inType);
      case DuckDBTypeId.LIST:
      case DuckDBTypeId.ARRAY:
        return inType(t.valueType);
      case DuckDBTypeId.MAP:
        return inType(t.keyType) || inType(t.valueType);
      case DuckDBTypeId.UNION:
        return t.memberTags.includes('__proto__') || t.memberTypes.some(inType);
      default:
        return false;
    }
  };
  return types.some(inType) ? 'a struct field or union member' : null;
}

/**
 * Rows [from, from + count) of a chunk as a sink of `mode` takes them: JSON texts, text (a statement
 * that is not a SELECT, such as DESCRIBE or PRAGMA: node-api's text, DuckDB's for its types) or plain
 * values. Column by column: node-api's row by row reads the chunk's shape again for every row. Each
 * column is read through a slice of its vector, as a vector keeps every value it has read until the
 * chunk goes: only these rows are held.
 */
export function chunkRows(
  chunk: DuckDBDataChunk,
  types: DuckDBType[],
  mode: 'json' | 'text' | 'plain',
  from = 0,
  count = chunk.rowCount - from,
): unknown[][] {
  const n = Math.max(0, Math.min(count, chunk.rowCount - from));
  const cols = types.map((_, c) => {
    const vector = chunk.getColumnVector(c);
    return n === chunk.rowCount ? vector : vector.slice(from, n);
  });
  // The converter is chosen once per chunk, not once per value.
  const value: (v: DuckDBValue, c: number) => unknown =
    mode === 'json'
      ? (v, c) => jsonText(v, types[c]!)
      : mode === 'text'
        ? (v) => (v === null ? null : String(v))
        : (v, c) => (v === null ? null : toPlain(v, types[c]!, toPlain));
  return Array.from({ length: n }, (_, r) => cols.map((col, c) => value(col.getItem(r), c)));
}

/**
 * Column names made distinct: a repeated one suffixed `:1`, `:2`, …, skipping a name another column has
 * (`a, a, "a:1"` is `a`, `a:2`, `a:1`): node-api's own suffix had given two columns `a:1`, one value lost.
 */
export function deduplicated(names: string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  const next = new Map<string, number>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let k = next.get(name) ?? 1;
    while (taken.has(`${name}:${k}`)) k++;
    next.set(name, k + 1);
    taken.add(`${name}:${k}`);
    return `${name}:${k}`;
  });
}

/**
 * A value's JSON text: numbers (integers of any size, DECIMAL) as JSON numbers in DuckDB's exact
 * digits; non-finite floats as the strings "NaN", "Infinity", "-Infinity"; dates, times and
 * timestamps as ISO 8601 strings, INTERVAL as an ISO 8601 duration; BLOB as base64; lists and
 * arrays as arrays, structs as objects, a MAP as an object keyed by its keys' text, a UNION as its
 * value; anything else (UUID, ENUM, BIT, JSON, …) as the string of its text.
 */
export function jsonText(v: DuckDBValue, type: DuckDBType): string {
  if (v === null) return 'null';
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return v ? 'true' : 'false';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.DECIMAL:
      return String(v);
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return Number.isFinite(v) ? JSON.stringify(v) : `"${String(v)}"`;
    case DuckDBTypeId.DATE:
      return JSON.stringify(dateText(v as DuckDBDateValue));
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return JSON.stringify(timestampText(v as Timestamp));
    case DuckDBTypeId.TIME_TZ:
      return JSON.stringify(isoOffset(String(v)));
    case DuckDBTypeId.INTERVAL: {
      const i = v as DuckDBIntervalValue;
      return JSON.stringify(isoDuration(i.months, i.days, i.micros));
    }
    case DuckDBTypeId.BLOB:
      return JSON.stringify(Buffer.from((v as DuckDBBlobValue).bytes).toString('base64'));
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return `[${(v as DuckDBListValue).items.map((x) => jsonText(x, type.valueType)).join(',')}]`;
    case DuckDBTypeId.STRUCT: {
      const t = type;
      return `{${t.entryNames.map((name, k) => `${JSON.stringify(name)}:${jsonText((v as DuckDBStructValue).entries[name] ?? null, t.entryTypes[k]!)}`).join(',')}}`;
    }
    case DuckDBTypeId.MAP:
      return `{${(v as DuckDBMapValue).entries.map((e) => `${JSON.stringify(keyText(e.key, type.keyType))}:${jsonText(e.value, type.valueType)}`).join(',')}}`;
    case DuckDBTypeId.UNION: {
      const u = v as DuckDBUnionValue;
      return jsonText(u.value, type.memberTypes[type.memberTags.indexOf(u.tag)]!);
    }
    default:
      return JSON.stringify(String(v));
  }
}

/**
 * A MAP key's text, as DuckDB writes it: a float's as floatText writes it (JavaScript's 1e20 is
 * 100000000000000000000), a date's or timestamp's as time-text.ts does (node-api's names infinity
 * as a day), any other scalar's as node-api writes it, which is DuckDB's. A LIST or STRUCT key is
 * node-api's text, its floats and infinities JavaScript's.
 */
function keyText(k: DuckDBValue, type: DuckDBType): string {
  if (type.typeId === DuckDBTypeId.DOUBLE || type.typeId === DuckDBTypeId.FLOAT)
    return floatText(k as number, type.typeId === DuckDBTypeId.FLOAT);
  if (type.typeId === DuckDBTypeId.DATE) return dateText(k as DuckDBDateValue);
  if (DATES.has(type.typeId)) return timestampDuckText(k as Timestamp);
  return String(k);
}

export interface Result {
  /** The rows' keys, in order: the column names, a repeated one suffixed `:1`, `:2`, … (deduplicated). */
  columns: string[];
  /** DuckDB's own type names, e.g. `BIGINT`, `VARCHAR[]`. */
  types: string[];
  rows: Row[];
}

/** A result's rows, as plain values. */
export function resultOf(reader: DuckDBResultReader): Result {
  // Rows keyed by our distinct names: node-api's row objects would key `a, a, "a:1"` as a, a:1, a:1.
  const columns = deduplicated(reader.columnNames());
  return {
    columns,
    types: reader.columnTypes().map((t) => t.toString()),
    rows: reader.convertRows(toPlain).map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i] ?? null]))) as Row[],
  };
}
