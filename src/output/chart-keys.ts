/**
 * How a chart's categories reach vega: as generated keys in a fixed order, with their names beside them,
 * a category that stands for several (a bucket) kept apart from any name, and at most eight colours.
 */
import type { Row } from '../base/shapes.js';
import { displayed } from './shown.js';

/** A category that stands for several ("other"): its label is ours, and it never merges with a name that reads the same. */
export interface Bucket {
  bucket: string;
}

export const isBucket = (v: unknown): v is Bucket => typeof v === 'object' && v !== null && 'bucket' in v;

/** What tells two categories apart: a bucket and a name of the same text are two. */
const identity = (v: unknown) => (isBucket(v) ? `bucket:${v.bucket}` : `name:${String(v)}`);

/** A category as its label shows it: a name as the terminal shows it (a NUL or U+FFFF never reaches the SVG), a bucket as ours. */
const label = (v: unknown) => (isBucket(v) ? v.bucket : displayed(String(v)));

export const nameField = (f: string) => `${f}_name`;
export const orderField = (f: string) => `${f}_order`;

/**
 * A field's categories in the order coded() gave them, by the number beside each key: vega-lite compiles a
 * sort by an array of keys into one nested expression, which overflowed vega's parser past ~985 keys.
 */
export const byOrder = (f: string) => ({ field: orderField(f), op: 'min' });

/** The label of a coded key: its name, from the dataset coded() made (the key's number is its index). */
export const labelOf = (f: string) => `data('names_${f}')[toNumber(slice(datum.value, 1))].name`;

/**
 * Names written by whoever made the evidence never reach vega as keys or expression text: vega reads
 * them as code (U+2028 ends its string literals; `constructor` is a property of every object). Each
 * category is a generated key, c0, c1…, in first-seen order; its label is a field beside it (for
 * the marks' descriptions) and a dataset the axis and legend labels look the key up in.
 */
export function coded(rows: Row[], fields: string[]): { values: Row[]; names: Record<string, string[]> } {
  const names: Record<string, string[]> = {};
  const index: Record<string, Map<string, number>> = {};
  for (const f of new Set(fields)) {
    index[f] = new Map();
    names[f] = [];
    for (const r of rows) {
      const id = identity(r[f]);
      if (index[f].has(id)) continue;
      index[f].set(id, names[f].length);
      names[f].push(label(r[f]));
    }
  }
  const values = rows.map((r) => {
    const v: Row = { ...r };
    for (const f of fields) {
      const i = index[f]!.get(identity(r[f]))!;
      v[f] = `c${i}`;
      v[nameField(f)] = names[f]![i]!;
      v[orderField(f)] = i;
    }
    return v;
  });
  return { values, names };
}

/** The palette's size: a chart colours at most this many categories, each its own colour. */
const COLOURS = 8;

/**
 * Rows whose `field` has at most eight categories, so that no two share a colour (the palette has eight):
 * past eight, the seven of most `weight` (first seen first on a tie) keep theirs and the rest are one
 * bucket, "(n others)". `note` says so for the text alternative; the table beside the chart keeps each.
 */
export function capped(rows: Row[], field: string, weight: (r: Row) => number): { rows: Row[]; note: string } {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(identity(r[field]), (totals.get(identity(r[field])) ?? 0) + weight(r));
  if (totals.size <= COLOURS) return { rows, note: '' };
  const kept = new Set(
    [...totals.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, COLOURS - 1)
      .map(([id]) => id),
  );
  const others: Bucket = { bucket: `(${totals.size - kept.size} others)` };
  return {
    rows: rows.map((r) => (kept.has(identity(r[field])) ? r : { ...r, [field]: others })),
    note: ` Coloured: the seven with the most, the other ${totals.size - kept.size} together as ${others.bucket}; the table has each.`,
  };
}
