/**
 * Output formats for tabular data: a terminal table (cli-table3), GitHub markdown, CSV, JSON and
 * NDJSON. The formatters (one module per table) hand over display rows of strings, numbers and
 * nulls (plus the JSON objects they want printed for json/ndjson); this module lays them out and
 * never changes a value.
 */
import { createRequire } from 'node:module';
import type TableType from 'cli-table3';

// cli-table3 (and string-width, its measure) load when a table is first printed: most runs print markdown, csv or json.
const require = createRequire(import.meta.url);
let Table: typeof TableType | undefined;
let stringWidth: ((s: string) => number) | undefined;
import { UsageError } from '../base/errors.js';
import { displayedInTerminal, markdownText } from './shown.js';

/** A display value; a list is its items joined by spaces in a table or markdown, a JSON array in csv. */
export type Cell = string | number | boolean | null | readonly string[];

/** A query row as it arrives, column → value: the one Row of base/shapes.ts. */
export type { Row } from '../base/shapes.js';

export interface Column {
  key: string;
  /** Header text; the key when absent. */
  title?: string;
  /** Right-align (numbers). */
  right?: boolean;
  /** Dollars: `$0.1460` in table and markdown, the number itself in csv and json. */
  money?: boolean;
  /** Markdown of our own (the docs' text, not evidence): in markdown as written, only `|` and `\\` escaped. */
  markdown?: boolean;
}

/**
 * An amount of dollars for reading: 4 decimals (0.145952 → `$0.1460`); none is blank, never $0. It is rounded
 * half up on its decimal digits, as written (a DECIMAL's string) or as a number prints: 0.00035 is $0.0004,
 * where toFixed rounds the double below it.
 */
export function dollars(v: number | string | null, places = 4): string {
  if (v === null) return '';
  const [, sign, whole, frac = ''] = /^(-?)(\d+)(?:\.(\d*))?$/.exec(typeof v === 'number' ? plain(v) : v) ?? [];
  if (whole === undefined) return typeof v === 'number' ? `$${v}` : v;
  const units = BigInt(whole + frac.padEnd(places, '0').slice(0, places)) + (Number(frac[places] ?? 0) >= 5 ? 1n : 0n);
  const digits = units.toString().padStart(places + 1, '0');
  return `$${units === 0n ? '' : sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** A number's digits as plain decimal text, its exponent written out: 1e-7 is 0.0000001, 1e+21 a 1 and 21 zeros. */
function plain(n: number): string {
  const [, sign, int, frac = '', exp] = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n)) ?? [];
  if (int === undefined || exp === undefined) return String(n);
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return point >= digits.length
    ? `${sign}${digits}${'0'.repeat(point - digits.length)}`
    : `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A display row as table and markdown show it: money in dollars. */
function shown(columns: Column[], row: Record<string, Cell>): Record<string, Cell> {
  const money = columns.filter((c) => c.money && (typeof row[c.key] === 'number' || typeof row[c.key] === 'string'));
  if (!money.length) return row;
  return { ...row, ...Object.fromEntries(money.map((c) => [c.key, dollars(row[c.key] as number | string)])) };
}

export const TABULAR_FORMATS = ['table', 'markdown', 'csv', 'json', 'ndjson'] as const;
export type TabularFormat = (typeof TABULAR_FORMATS)[number];

/** The format when none is asked for: a table on a terminal, markdown in a pipe or a file. */
export function defaultFormat(isTTY: boolean | undefined): 'table' | 'markdown' {
  return isTTY ? 'table' : 'markdown';
}

/** Check a --format value against what a command offers. */
export function checkFormat<T extends string>(value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--format must be one of ${allowed.join(', ')}; got "${value}"`);
  }
  return value as T;
}

/** Any query value as a cell: lists and structs as JSON text, dates as ISO 8601. */
export function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v) || typeof v === 'object') return JSON.stringify(v);
  return v as Cell;
}

function text(v: Cell): string {
  return v === null ? '' : Array.isArray(v) ? v.join(' ') : String(v);
}

/** How a terminal table is drawn: in colour or not, and within what width. */
export interface TableStyle {
  color?: boolean;
  /** The terminal's width in characters; absent, a table is as wide as its cells. */
  width?: number;
  /** Told the titles of the columns a table left out to fit `width`. */
  onDrop?: (titles: string[]) => void;
}

/** The narrowest a column is shortened to before columns are left out instead. */
const NARROWEST = 8;

/** How wide a cell's text shows: its longest line, in terminal columns as cli-table3 counts them (漢 is two). */
function textWidth(s: string): number {
  stringWidth ??= require('string-width') as (s: string) => number;
  return Math.max(...s.split('\n').map(stringWidth));
}

/**
 * The content width of each column within `width` (a border and two spaces of padding each, and
 * one more border): narrow columns keep their width, wide ones share what is left, each shortened
 * to no less than NARROWEST; when even that does not fit, columns are left out from the right (the
 * first is always kept). Returns the widths of the columns kept, in order, and how many are kept.
 */
export function fitWidths(natural: number[], width: number): { widths: number[]; kept: number } {
  const room = (n: number) => width - 3 * n - 1;
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room(natural.length)) return { widths: natural, kept: natural.length };
  let kept = natural.length;
  const least = (n: number) => natural.slice(0, n).reduce((a, w) => a + Math.min(w, NARROWEST), 0);
  while (kept > 1 && least(kept) > room(kept)) kept--;
  const widths = natural.slice(0, kept);
  // Water-fill: the narrowest first take what they need; the rest share equally what remains.
  let left = Math.max(room(kept), 0);
  const order = widths.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]! || a - b);
  order.forEach((i, k) => {
    const share = Math.floor(left / (order.length - k));
    if (widths[i]! > share) widths[i] = Math.max(share, 1);
    left -= widths[i]!;
  });
  return { widths, kept };
}

const BORDER = /[─│┌┐└┘├┤┬┴┼]+/g;

/** Colour as a terminal shows it: the header bold, the borders grey. */
function paint(lines: string[]): string[] {
  return lines.map((line, i) => {
    const body = i === 1 ? line.replace(/(?<=│)([^│]+)(?=│)/g, '\x1b[1m$1\x1b[22m') : line;
    return body.replace(BORDER, (b) => `\x1b[90m${b}\x1b[39m`);
  });
}

export function toTable(columns: Column[], rows: Record<string, Cell>[], style: TableStyle = {}): string {
  Table ??= require('cli-table3') as typeof TableType;
  // An escape from the evidence (a model named "\x1b]0;…", a PIVOT's column) is shown, never sent to the terminal.
  const cell = (s: string) => displayedInTerminal(s.replaceAll('\t', '\u2409'));
  const titles = columns.map((c) => cell(c.title ?? c.key));
  const body = rows.map((r) => columns.map((c) => cell(text(r[c.key] ?? null))));
  let kept = columns.length;
  let colWidths: number[] | undefined;
  if (style.width !== undefined) {
    const natural = titles.map((t, i) => Math.max(textWidth(t), ...body.map((cells) => textWidth(cells[i]!))));
    const fit = fitWidths(natural, style.width);
    kept = fit.kept;
    if (fit.widths.some((w, i) => w < natural[i]!)) colWidths = fit.widths.map((w) => w + 2);
    if (kept < columns.length) style.onDrop?.(titles.slice(kept));
  }
  const table = new Table({
    head: titles.slice(0, kept),
    colAligns: columns.slice(0, kept).map((c) => (c.right ? 'right' : 'left')),
    ...(colWidths ? { colWidths } : {}),
    // Colour is painted below, from `style` alone: cli-table3's own depends on the process's stdout.
    style: { head: [], border: [] },
    // No rule between body rows: one line per row reads better and stays greppable.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const cells of body) table.push(cells.slice(0, kept));
  const lines = table.toString().split('\n');
  // Without row rules cli-table3 also drops the rule under the header: draw it from the top border.
  const rule = lines[0]!.replace('┌', '├').replaceAll('┬', '┼').replace('┐', '┤');
  const all = [lines[0]!, lines[1]!, rule, ...lines.slice(2)];
  return `${(style.color ? paint(all) : all).join('\n')}\n`;
}

/** A GFM pipe table: values shown literally (markdownText), NULL as an empty cell, numbers right-aligned. */
export function toMarkdown(columns: Column[], rows: Record<string, Cell>[]): string {
  const head = markdownLine(columns.map((c) => c.title ?? c.key));
  const rule = `|${columns.map((c) => (c.right ? '---:' : ':---')).join('|')}|`;
  const body = rows.map((r) =>
    markdownLine(
      columns.map((c) => text(r[c.key] ?? null)),
      columns,
    ),
  );
  return `${[head, rule, ...body].join('\n')}\n`;
}

/** One row of a GFM pipe table, without its line break: each value as GitHub shows it literally (markdownText). */
export function markdownLine(values: string[], columns?: Column[]): string {
  return `| ${values.map((v, i) => markdownText(v, columns?.[i]?.markdown)).join(' | ')} |`;
}

/**
 * RFC 4180 CSV with a header row; a field is quoted when it holds a comma, quote or line break, and an empty
 * string is `""`, NULL an empty field, as DuckDB's COPY writes them: read_csv had read '' back as NULL.
 */
export function toCsv(columns: Column[], rows: Record<string, Cell>[]): string {
  const lines = [columns.map((c) => csvField(c.key)), ...rows.map((r) => columns.map((c) => csvField(r[c.key] ?? null)))];
  return `${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}

export function csvField(v: Cell): string {
  const s = Array.isArray(v) ? JSON.stringify(v) : text(v);
  if (s === '' && v !== null) return '""';
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A json row as csv carries it: each value as cellOf makes it (a list or an object as its JSON text). */
export function jsonCells(row: Record<string, unknown>): Record<string, Cell> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cellOf(v)]));
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function toNdjson(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}

/** How tabulate lays out items: as display rows (`cells`), or as what json/ndjson print (`json`). */
export interface RowForms<T> {
  /** An item's display row: table, markdown and csv. */
  cells: (item: T) => Record<string, Cell>;
  /** What json and ndjson print of an item (default: the item itself). */
  json?: (item: T) => unknown;
  style?: TableStyle;
}

/** Lay out items in one of the tabular formats. Only the form the format prints is made. */
export function tabulate<T>(format: TabularFormat, columns: Column[], items: readonly T[], forms: RowForms<T>): string {
  switch (format) {
    case 'table':
      return toTable(
        columns,
        items.map((i) => shown(columns, forms.cells(i))),
        forms.style,
      );
    case 'markdown':
      return toMarkdown(
        columns,
        items.map((i) => shown(columns, forms.cells(i))),
      );
    case 'csv':
      return toCsv(columns, items.map(forms.cells));
    case 'json':
      return toJson(forms.json ? items.map(forms.json) : items);
    case 'ndjson':
      return toNdjson(forms.json ? items.map(forms.json) : items);
  }
}
