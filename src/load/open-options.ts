/**
 * The arguments the library is given, checked: plain JavaScript can pass anything, and a wrong one
 * is refused in words (a UsageError naming it), not with a TypeError from deep inside a loader,
 * nor taken for something else (a timeout of 'x' for none).
 */
import { InputError, UsageError } from '../base/errors.js';
import { isPath } from '../base/path-given.js';
import { isMemorySize } from '../base/memory.js';
import { DECIMAL_TEXT } from '../base/shapes.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { type Query, readQuery } from '../db/queries.js';
import { REGISTRATION_ANSWERS } from './tables-named.js';
import type { OpenOptions } from './open.js';

const isString = (v: unknown) => typeof v === 'string';
const isStrings = (v: unknown) => Array.isArray(v) && Array.from(v).every(isString);
const isFunction = (v: unknown) => typeof v === 'function';
/** What each option of OpenOptions must be, in words for the message. */
const OPTION_CHECKS: [keyof OpenOptions, (v: unknown) => boolean, string][] = [
  ['transcripts', (v) => typeof v === 'boolean' || isPath(v), 'true, false or a folder (a non-empty string)'],
  ['ownTranscripts', (v) => typeof v === 'boolean', 'true or false'],
  ['db', isPath, 'a database file (a non-empty string)'],
  ['memoryLimit', (v) => isString(v) && isMemorySize(v as string), "a size such as '2GB' or '512MiB' (a string), under 16 EiB"],
  ['pricing', isPath, 'a price table file (a non-empty string)'],
  ['queries', (v) => isStrings(v) && (v as unknown[]).length > 0, 'a list of query names (strings), at least one'],
  ['tables', isStrings, 'a list of table names (strings)'],
  ['onWarning', isFunction, 'a function'],
  ['onProgress', isFunction, 'a function'],
  // Infinity is never, as 0 is (and as sql()'s timeout takes it).
  ['checkTimeout', (v) => typeof v === 'number' && v >= 0, 'a number of seconds, 0 or more (0: never)'],
];

const KNOWN = OPTION_CHECKS.map(([key]) => key);

/** OpenOptions from plain JavaScript, refused in words, not with a TypeError from deep inside a loader. */
export function checkOptions(options: unknown, where = 'openEvidence(paths, options)', known: readonly string[] = KNOWN): OpenOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new UsageError(`${where}: options must be an object, such as { transcripts: true }`);
  }
  for (const [key, ok, what] of OPTION_CHECKS) {
    const v = (options as Record<string, unknown>)[key];
    if (v !== undefined && !ok(v)) throw new UsageError(`${where}: ${key} must be ${what}`);
  }
  // A misspelt option ({ transcript: true }) would otherwise be the default, and say nothing.
  unknownKey(options, known, where);
  return options as OpenOptions;
}

/** Evidence.openTranscripts' options with its folder: `true` would name no probe's transcripts, so open nothing. */
export function checkTranscriptsDir(dir: unknown, options: unknown): OpenOptions {
  if (!isPath(dir)) throw new UsageError('Evidence.openTranscripts(dir): dir must be a folder (a non-empty string)');
  const where = 'Evidence.openTranscripts(dir, options)';
  return checkOptions(
    {
      ...checkOptions(
        options,
        where,
        KNOWN.filter((k) => k !== 'transcripts'),
      ),
      transcripts: dir,
    },
    where,
  );
}

/** Evidence.build's arguments: a list of probe folders, and open's options with the file and force. */
export function checkBuildArguments(paths: unknown, options: unknown, probesDefault: unknown): void {
  const where = 'Evidence.build(paths, options)';
  // The empty path is namedInputs' to refuse, as it refuses it from the command line.
  if (!Array.isArray(paths) || !Array.from(paths).every(isString)) {
    throw new UsageError(`${where}: paths must be a list of probe folders (strings)`);
  }
  // What a build does not read is refused, not ignored: it reads no database, and builds every table.
  const known = [...KNOWN.filter((k) => !['db', 'memoryLimit', 'checkTimeout', 'queries', 'tables'].includes(k)), 'file', 'force'];
  const { force } = checkOptions(options, where, known) as { force?: unknown };
  if (force !== undefined && typeof force !== 'boolean') throw new UsageError(`${where}: force must be true or false`);
  if (typeof probesDefault !== 'boolean') throw new UsageError(`${where}: probesDefault must be true or false`);
}

function unknownKey(options: object, known: readonly string[], where: string): void {
  // A key given as undefined is not given, as the checks of each option read it.
  const key = Object.keys(options).find((k) => !known.includes(k) && (options as Record<string, unknown>)[k] !== undefined);
  if (key !== undefined) {
    throw new UsageError(`${where}: no option ${JSON.stringify(key)}; the options are ${known.join(', ')}`);
  }
}

/** sql()'s text and options, with their defaults: a timeout of a minute, and at most a million rows. */
export function checkSqlArguments(
  text: unknown,
  options: { timeout?: unknown; maxRows?: unknown } | undefined,
  where = 'sql',
  known: readonly string[] = ['timeout', 'maxRows'],
) {
  if (typeof text !== 'string') throw new UsageError(`${where}(text): text must be SQL (a string)`);
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw new UsageError(`${where}(text, options): options must be an object, such as { timeout: 10 }`);
  }
  // A misspelt limit ({ timeOut: 5 }) would otherwise leave the default in force, unsaid.
  if (options) unknownKey(options, known, `${where}(text, options)`);
  const { timeout = 60, maxRows = 1_000_000 } = options ?? {};
  if (typeof timeout !== 'number' || !(timeout >= 0)) {
    throw new UsageError(`${where}(text, { timeout }): timeout must be a number of seconds, 0 for none`);
  }
  if (typeof maxRows !== 'number' || !Number.isSafeInteger(maxRows) || maxRows < 0) {
    throw new UsageError(`${where}(text, { maxRows }): maxRows must be a whole number of rows`);
  }
  return { timeout, maxRows };
}

/**
 * sqlResult's and sqlStream's limits, checked and with sql()'s defaults: a minute, and for sqlResult, which
 * gathers its rows, a million of them (sqlStream hands them on); a caller's SQL had run unbounded there.
 */
export function checkSqlLimits<L extends { timeout?: number; maxRows?: number }>(where: string, text: unknown, limits: L = {} as L): L {
  const names = ['timeout', 'timeoutName', 'memoryName', ...(where === 'sqlResult' ? ['maxRows'] : [])];
  const bounds = checkSqlArguments(text, limits, where, names);
  for (const name of ['timeoutName', 'memoryName'] as const) {
    const v = (limits as Record<string, unknown>)[name];
    if (v !== undefined && typeof v !== 'string') throw new UsageError(`${where}(text, { ${name} }): ${name} must be a string`);
  }
  return { ...limits, timeout: bounds.timeout, ...(where === 'sqlResult' ? { maxRows: bounds.maxRows } : {}) };
}

/** A method's `from`: records or transcripts, and the transcripts loaded when it is they. */
export function checkSource(from: unknown, method: string, hasTranscripts: boolean, where = `${method}(from)`): void {
  if (from !== 'records' && from !== 'transcripts') {
    throw new UsageError(`${where}: from must be 'records' or 'transcripts', not ${describe(from)}`);
  }
  if (from === 'transcripts' && !hasTranscripts) {
    throw new InputError('transcripts were not loaded', 'open with { transcripts: true } or a transcripts directory');
  }
}

/** A value as an error names it: JSON.stringify throws on a BigInt (written 5n here) and gives nothing for a function. */
const describe = (v: unknown): string => (typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v)));

/** What a query's parameter must be where the query would read another value silently (usage.sql refuses its own). */
const PARAM_CHECKS = new Map<string, [(v: unknown) => boolean, string]>([
  ['by', [(v) => v === 'duration' || v === 'cost', "'duration' or 'cost'"]],
  // A string too: render passes a region's tolerance=0.01 as written.
  [
    'tolerance',
    [
      (v) => (typeof v === 'number' || typeof v === 'bigint' || (isString(v) && DECIMAL_TEXT.test(v as string))) && Number(v) >= 0,
      'a number, 0 or more',
    ],
  ],
]);

/**
 * query(name, params)'s parameters: every one `q` declares, with a value it reads as meant (`from` as
 * census() and skills() check it, the transcripts loaded included). Returns those it declares.
 */
export function checkQueryParams(q: Query, params: Record<string, DuckDBValue>, hasTranscripts: boolean): Record<string, DuckDBValue> {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new UsageError(`query('${q.name}', params): params must be an object, such as { from: 'records' }`);
  }
  // A misspelt name beside the right ones would be ignored, silently, as sql()'s options are not.
  const unknown = Object.keys(params).filter((p) => !q.params.includes(p));
  if (unknown.length) {
    throw new UsageError(
      `query('${q.name}', params): no parameter "${unknown[0]}"; ${q.params.length ? `the parameters are ${q.params.join(', ')}` : 'it takes none'}`,
    );
  }
  const missing = q.params.filter((p) => !(p in params));
  if (missing.length) throw new UsageError(`${q.source} needs the parameter(s) ${missing.join(', ')}`);
  for (const p of q.params) {
    const where = `query('${q.name}', { ${p} })`;
    if (p === 'from') checkSource(params.from, q.name, hasTranscripts, where);
    const [ok, what] = PARAM_CHECKS.get(p) ?? [() => true, ''];
    if (!ok(params[p])) throw new UsageError(`${where}: ${p} must be ${what}, not ${describe(params[p])}`);
  }
  return Object.fromEntries(q.params.map((p) => [p, params[p]!]));
}

/** Whether query `q` reads the registered checks' answers: they are run before it (it had met "does not exist"). */
export const readsAnswers = (q: Query): boolean => q.reads.some((t) => REGISTRATION_ANSWERS.includes(t));

/** `name`: the query refused, which a library method may run beside its own (census() runs forgeable too). */
export function refuse(only: readonly string[], what: string, name?: string): never {
  throw new UsageError(
    `${what}: this evidence was opened for ${only.join(', ')} alone ({ queries }), and loads only what they read; ${name ? `add ${name} to queries, or ` : ''}open it without queries`,
  );
}

/** A method of evidence opened with { tables }: its queries may read a transcript table that was not built. */
export function refuseTables(what: string): never {
  throw new UsageError(
    `${what}: this evidence was opened with { tables } for sql() alone, and built only the tables named`,
    'open it without tables',
  );
}

/**
 * The registration of evidence opened with { tables }, or for queries that read none of its answers: the
 * load may lack what a check reads (a table, or a call's input_keys a lean pass left NULL), so it is refused.
 */
export function refuseRegistrationUnread(only: readonly string[] | undefined, sqlOnly: boolean): void {
  if (sqlOnly) refuseTables('the registration');
  if (only && !only.some((q) => readsAnswers(readQuery(q)))) refuse(only, 'the registration');
}
