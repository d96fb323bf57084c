/**
 * `omg-evidence sql [QUERY] [PROBE...]`: ad-hoc SQL over the loaded views. The query comes from
 * the argument, from a file (-F), or from stdin. It runs only after loading, in a database with
 * file access disabled and its configuration locked, so it cannot read or write any file; and in a
 * transaction that is rolled back (Evidence.sqlStream), so it cannot change the evidence either.
 * Its result is printed a chunk at a time as DuckDB makes it, within --memory-limit and --timeout.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { Row } from '../../evidence.js';
import { InputError, UsageError } from '../../base/errors.js';
import { Evidence, withEvidence, type Source } from '../../evidence.js';
import { cellOf, render, streamWriter, TABLE_ROWS, TABULAR_FORMATS, type TableStyle } from '../../output/formats.js';
import { processIO, warn, type IO } from '../io.js';
import { progressReporter } from '../progress.js';
import {
  chosenFormat,
  dbOption,
  formatOption,
  fromOption,
  memoryLimitOption,
  resolveSource,
  timeoutOption,
  transcriptsOption,
  tableStyle,
  wideOption,
} from '../options.js';
import { displayPath } from '../../base/paths.js';

type Format = (typeof TABULAR_FORMATS)[number];

/** Numeric DuckDB types, right-aligned. */
const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

/** Wait until stdout has drained (a slow pipe), so that printed rows are not held in memory. */
async function drained(io: IO): Promise<void> {
  if (io === processIO && process.stdout.writableNeedDrain) await new Promise((ok) => process.stdout.once('drain', ok));
}

export function formatResult(columns: string[], types: string[], rows: Row[], format: Format, style: TableStyle = {}): string {
  const cols = columns.map((c, i) => ({ key: c, right: NUMERIC.test(types[i]!) }));
  return render(format, cols, rows, { cells: (r) => Object.fromEntries(columns.map((c) => [c, cellOf(r[c])])), style });
}

/** Read all of stdin (the query, when no argument or file gives one). */
function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

export function makeSqlCommand(io: IO, stdin: () => string = readStdin): Command {
  return new Command('sql')
    .description('run SQL over the loaded views (see omg-evidence schema); the query is an argument, a file (-F) or stdin')
    .argument('[query]', 'the SQL (or "-" for stdin); with -F, every argument is a probe')
    .argument('[probe...]', 'probe directories')
    .option('-F, --file <file>', 'read the query from FILE')
    .addOption(formatOption(TABULAR_FORMATS))
    .addOption(wideOption())
    .addOption(fromOption())
    .addOption(transcriptsOption())
    .addOption(dbOption())
    .addOption(memoryLimitOption())
    .addOption(timeoutOption())
    .action(
      async (
        query: string | undefined,
        rest: string[],
        opts: {
          file?: string;
          format?: Format;
          wide?: boolean;
          from?: Source;
          transcripts?: string;
          db?: string;
          memoryLimit?: string;
          timeout: number;
        },
      ) => {
        const format = chosenFormat(opts.format, io);
        let sql: string;
        let source: string;
        let probes = rest;
        if (opts.file !== undefined) {
          if (query !== undefined) probes = [query, ...rest];
          try {
            sql = readFileSync(opts.file, 'utf8');
          } catch (err) {
            throw new InputError(
              `${displayPath(opts.file)}: cannot read the query: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
            );
          }
          source = displayPath(opts.file);
        } else if (query === undefined || query === '-') {
          sql = stdin();
          source = '<stdin>';
        } else {
          sql = query;
          source = '<argument>';
        }
        if (sql.trim() === '') throw new UsageError('no query: give it as an argument, with --file FILE, or on stdin');
        const loadTranscripts = opts.from === 'transcripts' || opts.transcripts !== undefined;
        await withEvidence(
          Evidence.open(probes, {
            onWarning: (w) => warn(io, w),
            onProgress: progressReporter(io),
            db: opts.db,
            transcripts: loadTranscripts ? resolveSource('transcripts', opts.transcripts).open : undefined,
            memoryLimit: opts.memoryLimit,
          }),
          async (ev) => {
            const writer = streamWriter(format, io.stdout, {
              style: tableStyle(io, opts.wide),
              onOverflow: () =>
                warn(io, `more than ${TABLE_ROWS} rows: printed as markdown, which streams (a table holds its rows to size its columns)`),
            });
            await ev.sqlStream(
              sql,
              source,
              {
                mode: writer.mode,
                columns: (cols) => writer.begin(cols.map((c) => ({ key: c.name, right: NUMERIC.test(c.type) }))),
                rows: async (rows) => {
                  writer.rows(rows as (string | null)[][]);
                  await drained(io);
                },
              },
              { timeout: opts.timeout, timeoutName: '--timeout', memoryName: '--memory-limit' },
            );
            writer.end();
          },
        );
      },
    );
}
