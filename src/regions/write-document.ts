/**
 * Writing what render made: a document replaced only if it still holds what was read
 * (base/replace-file.ts), and a chart beside it.
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { InputError } from '../base/errors.js';
import { ioError } from '../base/io-error.js';
import { displayPath, realPath } from '../base/paths.js';
import { replaceFile, writeNewBeside } from '../base/replace-file.js';

/** What render says of a document edited while it rendered (replaceDocument, mustBeUnchanged). */
const CHANGED = 'the document changed while it was being rendered';

/**
 * Write `data` to the document at `path` if its bytes are still `expected`; otherwise refuse, writing
 * nothing, or (`charts`: written just before) nothing more.
 */
export function replaceDocument(path: string, expected: Buffer, data: string, charts: string[] = []): void {
  replaceFile(path, expected, data, {
    changed: CHANGED,
    ...(charts.length ? { written: `it was not written, its chart(s) were (${charts.map(displayPath).join(', ')})` } : {}),
    again: 'run render again',
    what: 'the document',
    writable: 'check that it and its folder are writable',
  });
}

/**
 * Write `data` to `path` (a chart beside a document) through a temporary file beside it, then a
 * rename; through a symbolic link to the file it points at, as a document is written.
 */
export function writeFileAtomically(path: string, data: string, recheck = () => {}): void {
  const file = existsSync(path) ? realPath(path) : path;
  let tmp: string | undefined;
  try {
    tmp = writeNewBeside(file, data);
    // Right before the rename, and after the temporary file is written: a link made meanwhile is refused.
    recheck();
    renameSync(tmp, file);
  } catch (e) {
    // Only a file this call made: one already at a name it tried (wx refused it) is someone else's.
    if (tmp !== undefined) rmSync(tmp, { force: true });
    if (e instanceof InputError) throw e;
    throw ioError(path, e, 'cannot write the chart', 'check that it and its folder are writable');
  }
}

/** Refuse, writing nothing, when the document at `path` no longer holds `expected` (before its charts are written). */
export function mustBeUnchanged(path: string, expected: Buffer): void {
  if (!readFileSync(path).equals(expected)) {
    throw new InputError(`${displayPath(path)}: ${CHANGED}; nothing was written`, 'run render again');
  }
}
