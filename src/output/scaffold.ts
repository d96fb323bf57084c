/**
 * `omg-evidence init DIR`: a minimal probe written from the files under templates/probe/, with the
 * probe id (DIR's name) filled in where a template says `{{probe}}`. It writes only into a folder
 * that is new or empty: a probe is evidence, and nothing already there is ever overwritten.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../base/errors.js';
import { displayPath, packageRoot, walkFiles } from '../base/paths.js';

/** The templates of a probe, shipped with the package. */
export const probeTemplatesDir: string = join(packageRoot, 'templates', 'probe');

/** Write a minimal probe into `dir` (new, or an empty folder). Returns the files written, relative to `dir`, sorted. */
export function scaffoldProbe(dir: string): string[] {
  if (dir.trim() === '') throw new InputError('init: no folder named', 'name a new or empty folder for the probe: omg-evidence init DIR');
  const out = resolve(dir);
  const probe = basename(out);
  const stat = lstatOrNull(out);
  if (stat?.isSymbolicLink()) {
    throw new InputError(`${displayPath(out)}: is a symbolic link`, 'name the folder itself, new or empty: init writes through no link');
  }
  if (stat && !stat.isDirectory()) {
    throw new InputError(`${displayPath(out)}: exists and is not a folder`, 'name a new or empty folder for the probe');
  }
  if (stat && readdirSync(out).length > 0) {
    throw new InputError(`${displayPath(out)}: not empty`, 'name a new or empty folder for the probe; init never overwrites');
  }
  const templates = walkFiles(probeTemplatesDir).map((f) => f.rel);
  if (templates.length === 0) {
    throw new InputError(
      `${displayPath(probeTemplatesDir)}: no probe templates`,
      'reinstall omg-evidence: its templates/ folder is missing',
    );
  }
  // Written into a hidden folder beside it, then renamed into place: a failure leaves nothing behind.
  const staging = join(dirname(out), `.omg-evidence-init-${process.pid}`);
  try {
    for (const rel of templates) {
      const text = readFileSync(join(probeTemplatesDir, rel), 'utf8');
      // In a JSON string the id is written as JSON escapes it; elsewhere as it is.
      const id = rel.endsWith('.jsonl') ? JSON.stringify(probe).slice(1, -1) : probe;
      const target = join(staging, rel);
      try {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(
          target,
          text.replaceAll('{{probe}}', () => id),
          { flag: 'wx' },
        );
      } catch (err) {
        throw cannotWrite(join(out, rel), err);
      }
    }
    try {
      // An empty folder gives way to the probe; one that filled meanwhile does not (rmdir fails).
      if (stat) rmdirSync(out);
      renameSync(staging, out);
    } catch (err) {
      throw cannotWrite(out, err);
    }
  } finally {
    // Best effort: when the folder could not even be made (its parent is a file), there is nothing to remove.
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {}
  }
  return templates;
}

function cannotWrite(path: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new InputError(`${displayPath(path)}: cannot write (${code})`, 'name a new or empty folder you can write to', { cause: err });
}

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
