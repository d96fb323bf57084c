/**
 * `omg-evidence sql [QUERY] [PROBE...]`: ad-hoc SQL over the loaded views. The query comes from
 * the argument, from a file (-F), or from stdin. It runs only after loading, in a database with
 * file access disabled and its configuration locked, so it cannot read or write any file; and in a
 * transaction that is rolled back (Evidence.sqlStream), so it cannot change the evidence either.
 * Its result is printed a chunk at a time as DuckDB makes it, within --memory-limit and --timeout.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { InputError, OutputClosed, UsageError } from '../../base/errors.js';
import { displayPath } from '../../base/paths.js';
import { Evidence, type Source, transcriptTablesNamed, unloadedTables } from '../../evidence.js';
import { withEvidence } from '../command.js';
import { TABULAR_FORMATS, type TabularFormat } from '../../output/formats.js';
import { streamWriter } from '../../output/stream.js';
import { NUMERIC } from '../../output/sql.js';
import { makeCommand } from '../command.js';
import { processIO, stdoutClosed, visible, warn, type IO } from '../io.js';
import { bounded, GRACE_SECONDS } from '../../base/supervision.js';
import { defaultMemoryLimit, memoryBytes } from '../../base/memory.js';
import { dbOption, fromOption, memoryLimitOption, resolveSource, timeoutOption, transcriptsOnly, transcriptsOption } from '../options.js';
import { progressReporter } from '../progress.js';
import { once as eventOnce } from 'node:events';

/**
 * Wait until stdout has drained (a slow pipe), so that printed rows are not held in memory; once its
 * reader has gone (`| head`), stop the query: what it would print is read by no one.
 */
async function drained(io: IO): Promise<void> {
  if (io !== processIO) return;
  if (!stdoutClosed() && process.stdout.writableNeedDrain) {
    const ac = new AbortController();
    // Whichever comes first; the other's listener goes with it, so that waits do not pile listeners up.
    await Promise.race([once(process.stdout, 'drain', ac), once(process.stdout, 'close', ac)]).catch(() => undefined);
    ac.abort();
  }
  // A write's EPIPE is emitted on a later tick: let it land before asking, not a chunk later.
  await new Promise((ok) => setImmediate(ok));
  if (stdoutClosed()) throw new OutputClosed('stdout was closed');
}

const once = (stream: NodeJS.WriteStream, event: string, ac: AbortController) => eventOnce(stream, event, { signal: ac.signal });

/** The longest query read from a file or stdin: an endless one (-F /dev/zero, `yes |`) would take every byte of memory. */
export const MAX_QUERY_BYTES = 16 * 1024 * 1024;

/** Read `fd` to its end, refusing more than MAX_QUERY_BYTES (`source` names it); a non-blocking stdin is waited for. */
function readQueryText(fd: number, source: string): string {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.alloc(64 * 1024);
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    if (n === 0) return utf8Query(Buffer.concat(chunks, total), source);
    total += n;
    if (total > MAX_QUERY_BYTES) {
      throw new InputError(
        `${source}: the query is longer than ${MAX_QUERY_BYTES / 1024 / 1024} MiB; nothing was run`,
        'a query is SQL text: is this the file you meant?',
      );
    }
    chunks.push(buf.subarray(0, n));
  }
}

/**
 * Read all of stdin (the query, when no argument or file gives one). A closed stdin gives no query;
 * one that cannot be read (a folder, an I/O error) is an error saying why, not "no query".
 */
function readStdin(): string {
  try {
    return readQueryText(0, '<stdin>');
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EBADF') return '';
    throw new InputError(
      `<stdin>: cannot read the query (${code ?? (err as Error).message})`,
      'give the query as an argument, or with --file FILE',
    );
  }
}

interface Options {
  file?: string;
  format?: TabularFormat;
  wide?: boolean;
  from?: Source;
  transcripts?: string;
  db?: string;
  memoryLimit?: string;
  timeout: number;
}

/**
 * The query's text: its bytes as UTF-8, strictly. A byte that is not UTF-8 (a Latin-1 é) would be read
 * as U+FFFD, and the query would run as another one than written; the error names its line.
 */
function utf8Query(bytes: Buffer, source: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let line = 1;
  for (let from = 0; ; line++) {
    const end = bytes.indexOf(0x0a, from);
    if (end < 0 || !isUtf8(bytes.subarray(from, end))) break;
    from = end + 1;
  }
  throw new InputError(`${source}:${line}: the query is not UTF-8, so nothing was run`, 'save it as UTF-8');
}

/** The query and where it came from (for messages): -F's file, stdin, or the argument. */
function theQuery(query: string | undefined, rest: string[], opts: Options, stdin: () => string) {
  if (opts.file !== undefined) {
    let sql: string;
    try {
      const fd = openSync(opts.file, 'r');
      try {
        sql = readQueryText(fd, displayPath(opts.file));
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(
        `${displayPath(opts.file)}: cannot read the query: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        'give -F a file of SQL that exists and that you may read; for stdin, leave -F out',
      );
    }
    // With -F, every argument is a probe.
    return { sql, source: displayPath(opts.file), probes: query !== undefined ? [query, ...rest] : rest };
  }
  if (query === undefined || query === '-') return { sql: stdin(), source: '<stdin>', probes: rest };
  return { sql: query, source: '<argument>', probes: rest };
}

/** Say that the tables a query reads hold no row for what was loaded (unloadedTables), and what would load them. */
function emptyTablesWarning(io: IO, unloaded: { probes: string[]; transcripts: string[] }, db: boolean): void {
  // A database file holds what its load was given: the advice is to load it again.
  const kinds = [
    [
      unloaded.probes,
      'no probe was read',
      db
        ? 'the database was built without one: load it again naming the probe'
        : 'name the probe beside --transcripts DIR to read its tables',
    ],
    [
      unloaded.transcripts,
      'no transcripts were read',
      db
        ? 'the database was built without them: load it again with --transcripts DIR'
        : "add --from transcripts for the probe's own, or --transcripts DIR",
    ],
  ] as const;
  for (const [tables, why, advice] of kinds) {
    if (tables.length) warn(io, `${tables.join(', ')} ${tables.length > 1 ? 'hold' : 'holds'} no row: ${why} (${advice})`);
  }
}

export function makeSqlCommand(io: IO, stdin: () => string = readStdin): Command {
  return makeCommand<Options>(io, {
    name: 'sql',
    description: 'run SQL over the loaded views (see omg-evidence schema); the query is an argument, a file (-F) or stdin',
    arguments: [
      ['[query]', 'the SQL (or "-" for stdin); with -F, every argument is a probe'],
      ['[probe...]', 'probe directories'],
    ],
    leading: [new Option('-F, --file <file>', 'read the query from FILE')],
    formats: TABULAR_FORMATS,
    options: [fromOption(), transcriptsOption('alone'), dbOption(), memoryLimitOption(), timeoutOption()],
    action: async ({ args, opts, format, style }) => {
      const { sql, source, probes } = theQuery(args[0] as string | undefined, args[1] as string[], opts, stdin);
      if (sql.trim() === '') throw new UsageError('no query: give it as an argument, with --file FILE, or on stdin');
      const loadTranscripts = opts.from === 'transcripts' || opts.transcripts !== undefined;
      const options = {
        onWarning: (w: string) => warn(io, w),
        onProgress: progressReporter(io),
        db: opts.db,
        // Only the transcript tables the query names are built (each one exact).
        tables: transcriptTablesNamed(sql),
        memoryLimit: opts.memoryLimit,
      };
      // --transcripts DIR with no probe: the sessions alone, as census and load read them (so that
      // --db finds the file `load --transcripts DIR` wrote).
      await withEvidence(
        transcriptsOnly(probes, opts)
          ? Evidence.openTranscripts(opts.transcripts!, options)
          : Evidence.open(probes, {
              ...options,
              transcripts: loadTranscripts ? resolveSource('transcripts', opts.transcripts).open : undefined,
            }),
        async (ev) => {
          const loaded = { probes: ev.probes.length > 0, transcripts: ev.hasTranscripts };
          const writer = streamWriter(format as TabularFormat, io.stdout, {
            style: style(),
            onOverflow: (why) =>
              warn(
                io,
                `${why}: printed as markdown, which streams (a table holds its rows to size its columns); --format csv, markdown or ndjson prints any size`,
              ),
            drained: () => drained(io),
          });
          const memoryLimit = opts.memoryLimit ?? defaultMemoryLimit();
          const said = `omg-evidence: ${visible(source)}:`;
          // The supervisor (supervise.ts) bounds the query from here, and the process with it.
          const bound = {
            seconds: opts.timeout,
            memoryBytes: memoryBytes(memoryLimit),
            late: `${said} query interrupted after ${opts.timeout} s (--timeout); DuckDB did not stop, so the process running it was stopped ${GRACE_SECONDS} s later (let it run longer with --timeout SECONDS, or 0 for no limit)`,
            over: `${said} the query took more memory than --memory-limit allows (${memoryLimit}); DuckDB did not stop it, so the process running it was stopped (raise --memory-limit, or ask for less: a LIMIT, fewer columns, shorter values)`,
          };
          await bounded(bound, () =>
            ev.sqlStream(
              sql,
              source,
              {
                mode: writer.mode,
                // Only when a kind of table was not loaded: otherwise there is nothing to warn of, and no parse.
                tables:
                  loaded.probes && loaded.transcripts
                    ? undefined
                    : (read) => emptyTablesWarning(io, unloadedTables(read, loaded), opts.db !== undefined),
                columns: (cols) => writer.begin(cols.map((c) => ({ key: c.name, right: NUMERIC.test(c.type) }))),
                rows: (rows) => writer.rows(rows as (string | null)[][]),
              },
              { timeout: opts.timeout, timeoutName: '--timeout', memoryName: '--memory-limit' },
            ),
          );
          await writer.end();
        },
      );
    },
  });
}
