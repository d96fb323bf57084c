/**
 * Printing a result that arrives a few rows at a time (the user's SQL) as it arrives, so that it is
 * never held whole: its text goes out a row at a time, gathered into pieces of about FLUSH_CHARS,
 * and after each piece the writer waits for stdout to take it (bounded by bytes, not rows: one row
 * may be megabytes).
 */
import { type Column, csvField, markdownLine, type TableStyle, type TabularFormat, toCsv, toMarkdown, toTable } from './formats.js';

/** The most text gathered before it is printed and stdout is waited on. */
const FLUSH_CHARS = 1 << 20;

/** The most rows a terminal table holds to size its columns. */
export const TABLE_ROWS = 10_000;

/** The most characters a terminal table holds, and lays out (every line padded to its columns' widths). */
export const TABLE_CHARS = 16 * 2 ** 20;

export interface StreamWriter {
  /** `text`: each value DuckDB's text (null for NULL); `json`: each value's JSON text. */
  mode: 'text' | 'json';
  begin(columns: Column[]): Promise<void>;
  rows(rows: (string | null)[][]): Promise<void>;
  end(): Promise<void>;
}

export interface StreamOptions {
  style?: TableStyle;
  /** Told why a table is printed as markdown instead: `more than 10000 rows`, … */
  onOverflow?: (why: string) => void;
  /** Waited on after each piece printed (stdout's backpressure). */
  drained?: () => Promise<void>;
}

/**
 * A writer for `format`. csv, markdown and ndjson print each row as it comes; json prints one object
 * per line inside the array; a table must see every row to size its columns, so it holds up to
 * TABLE_ROWS rows and TABLE_CHARS of text and, past either, prints them and the rest as markdown
 * (after calling `onOverflow`).
 */
export function streamWriter(format: TabularFormat, out: (text: string) => void, options: StreamOptions = {}): StreamWriter {
  let columns: Column[] = [];
  let count = 0;
  let pending: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!pending.length) return;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    size = 0;
    out(text);
    await options.drained?.();
  };
  // Whether what is gathered is to be printed now.
  const put = (text: string): boolean => {
    pending.push(text);
    size += text.length;
    return size >= FLUSH_CHARS;
  };
  const object = (row: (string | null)[]) => `{${columns.map((c, i) => `${JSON.stringify(c.key)}:${row[i]}`).join(',')}}`;
  const markdownRow = (r: (string | null)[]) => `${markdownLine(r.map((v) => v ?? ''))}\n`;
  const line = (r: (string | null)[]): string => {
    switch (format) {
      case 'csv':
        return `${r.map(csvField).join(',')}\r\n`;
      case 'ndjson':
        return `${object(r)}\n`;
      case 'json':
        return `${count === 0 ? '[\n' : ',\n'}  ${object(r)}`;
      default:
        return markdownRow(r);
    }
  };
  const table = format === 'table' ? heldTable(options.style?.width) : undefined;
  let holding = table !== undefined;
  return {
    mode: format === 'json' || format === 'ndjson' ? 'json' : 'text',
    async begin(cols) {
      columns = cols;
      if (format === 'csv') put(toCsv(columns, []));
      if (format === 'markdown') put(toMarkdown(columns, []));
    },
    async rows(rows) {
      for (const r of rows) {
        if (holding) {
          const why = table!.hold(r);
          if (why) {
            holding = false;
            options.onOverflow?.(why);
            put(toMarkdown(columns, []));
            for (const h of table!.rows.splice(0)) if (put(markdownRow(h))) await flush();
          }
        } else if (put(line(r))) await flush();
        count++;
      }
      await flush();
    },
    async end() {
      if (format === 'json') put(count === 0 ? '[]\n' : '\n]\n');
      if (holding) {
        const cells = (row: (string | null)[]) => Object.fromEntries(columns.map((c, i) => [c.key, row[i] ?? null]));
        put(toTable(columns, table!.rows.map(cells), options.style));
      }
      await flush();
    },
  };
}

/**
 * The rows a table holds, and whether one more is past what it may: the rows, the characters, or
 * the table they would lay out (each line as wide as the widest line of each column, or `width`).
 */
function heldTable(width: number | undefined): { rows: (string | null)[][]; hold(row: (string | null)[]): string | undefined } {
  const rows: (string | null)[][] = [];
  const widths: number[] = [];
  let chars = 0;
  let lines = 0;
  return {
    rows,
    hold(row) {
      rows.push(row);
      let height = 1;
      row.forEach((v, c) => {
        const text = v ?? '';
        chars += text.length;
        let n = 1;
        for (let at = 0, nl = text.indexOf('\n'); ; at = nl + 1, nl = text.indexOf('\n', at), n++) {
          widths[c] = Math.max(widths[c] ?? 0, (nl < 0 ? text.length : nl) - at);
          if (nl < 0) break;
        }
        height = Math.max(height, n);
      });
      lines += height;
      const wide = widths.reduce((a, w) => a + w + 3, 1);
      if (rows.length > TABLE_ROWS) return `more than ${TABLE_ROWS} rows`;
      if (chars > TABLE_CHARS || lines * Math.min(wide, width ?? wide) > TABLE_CHARS) {
        return `a table of more than ${TABLE_CHARS / 2 ** 20} MiB`;
      }
      return undefined;
    },
  };
}
