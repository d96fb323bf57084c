/** SQL text for what DuckDB cannot take as a bound parameter, and lists it can. */
import { type DuckDBValue, listValue } from '@duckdb/node-api';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';

/** Bound parameters: by name (`$name`) or by position. */
export type Params = Record<string, DuckDBValue> | DuckDBValue[];

/** A SQL string literal, for what DuckDB cannot take as a bound parameter (schemas, column maps). */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A SQL identifier, quoted. */
export function sqlIdentifier(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/** Strings as a bound list parameter, as they are (paths for a file reader take pathList). */
export function textList(values: string[]): DuckDBValue {
  return listValue(values);
}

/**
 * Files as a bound parameter for DuckDB's file readers (`read_json($files, …)`): DuckDB binds a
 * list of a thousand paths in about half the time it takes to parse them as a SQL literal. The
 * readers take `*`, `?` and `[` in a path as glob characters: `a[1].jsonl` would read `a1.jsonl`.
 * Each one is written as a one-character class, which matches only itself. No pattern matches a
 * path that holds a backslash too (DuckDB splits a pattern there): such a file is refused by name.
 */
export function pathList(paths: string[]): DuckDBValue {
  const unreadable = paths.find((p) => p.includes('\\') && /[*?[]/.test(p));
  if (unreadable) {
    throw new InputError(
      `${displayPath(unreadable)}: DuckDB cannot open a file whose path holds a backslash and one of * ? [ (it reads the path as a pattern)`,
      'rename the file, or the folder whose name holds them',
    );
  }
  return listValue(paths.map((p) => p.replace(/[*?[]/g, (c) => `[${c}]`)));
}
