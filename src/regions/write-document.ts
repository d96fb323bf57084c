/**
 * Replacing a document's bytes safely: through a symlink to the file it names (the link stays a
 * link), keeping the file's mode, atomically (a temporary file beside it, then a rename), and only
 * if the file still holds what was read, so an edit made while rendering is never lost.
 */
import { chmodSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';

/** Write `data` to the document at `path` if its bytes are still `expected`; otherwise refuse, writing nothing. */
export function replaceDocument(path: string, expected: Buffer, data: string): void {
  let tmp: string | undefined;
  try {
    const target = realpathSync(path);
    const mode = statSync(target).mode & 0o7777;
    const name = `${target}.omg-evidence-${process.pid}.tmp`;
    // Exclusive creation: a file or folder already at the temporary path is never used or removed.
    writeFileSync(name, data, { mode, flag: 'wx' });
    tmp = name;
    // The mode given at creation is masked by the umask.
    chmodSync(tmp, mode);
    if (!readFileSync(target).equals(expected)) {
      throw new InputError(
        `${displayPath(path)}: the document changed while it was being rendered; nothing was written`,
        'run render again',
      );
    }
    renameSync(tmp, target);
    tmp = undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof InputError || !code) throw e;
    throw new InputError(`${displayPath(path)}: cannot write the document (${code})`, 'check that it and its folder are writable');
  } finally {
    if (tmp !== undefined) rmSync(tmp, { force: true });
  }
}

/** Write `data` to `path` (a chart beside a document) through a temporary file beside it, then a rename. */
export function writeFileAtomically(path: string, data: string): void {
  const tmp = `${path}.omg-evidence-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${displayPath(path)}: cannot write the chart (${code ?? e})`, 'check that it and its folder are writable');
  }
}
