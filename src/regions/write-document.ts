/**
 * Writing what render made: a document replaced only if it still holds what was read
 * (base/replace-file.ts), and a chart beside it.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import { replaceFile } from '../base/replace-file.js';

/**
 * Write `data` to the document at `path` if its bytes are still `expected`; otherwise refuse, writing
 * nothing, or (`charts`: written just before) nothing more.
 */
export function replaceDocument(path: string, expected: Buffer, data: string, charts: string[] = []): void {
  replaceFile(path, expected, data, {
    changed: 'the document changed while it was being rendered',
    ...(charts.length ? { written: `it was not written, its chart(s) were (${charts.map(displayPath).join(', ')})` } : {}),
    again: 'run render again',
    what: 'the document',
    writable: 'check that it and its folder are writable',
  });
}

/**
 * Write `data` to the chart at `path` (beside a document) if its bytes are still `expected` (null:
 * none yet), as a document is written: through a symbolic link, never over an edit made meanwhile.
 */
export function replaceChart(path: string, expected: Buffer | null, data: string): void {
  replaceFile(path, expected, data, {
    changed: 'the chart changed while it was being rendered',
    again: 'run render again',
    what: 'the chart',
    writable: 'check that it and its folder are writable',
  });
}

/** Refuse, writing nothing, when the document at `path` no longer holds `expected` (before its charts are written). */
export function mustBeUnchanged(path: string, expected: Buffer): void {
  if (!readFileSync(path).equals(expected)) {
    throw new InputError(`${displayPath(path)}: the document changed while it was being rendered; nothing was written`, 'run render again');
  }
}
