/**
 * Where `export` may write: a new or empty folder (any folder with --force), that is not a file,
 * and that neither lies inside the evidence it exports nor would, once its views are replaced,
 * take an input with them. Evidence is read-only, --force or not.
 */
import { lstatSync, mkdtempSync, readdirSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { InputError } from '../base/errors.js';
import { ioError, onPath } from '../base/io-error.js';
import { displayPath, isWithin, makeFolders, takeBackFolders } from '../base/paths.js';
import { isProbe, realOrNot, refuseInsideProbe, withinEitherWay } from '../base/replace-file.js';
import { VIEWS } from '../db/views.js';
import type { Inputs } from './inputs.js';

/**
 * Refuse `dir` as export's folder when it is, or lies inside, a probe or transcripts folder being
 * exported, or any probe folder, or when a view's folder or file there (`<dir>/<view>`, `<dir>/<view>.parquet`), which
 * --force replaces, is or holds one of them.
 */
export function refuseEvidenceOverlap(dir: string, inputs: Inputs): void {
  const out = realOrNot(dir);
  const hint = 'name a folder outside every probe and transcripts folder: evidence is read-only';
  for (const input of [...inputs.probes, ...inputs.transcripts]) {
    if (withinEitherWay(dir, input)) {
      throw new InputError(`${displayPath(dir)}: inside the evidence it exports (${displayPath(input)}); nothing was written`, hint);
    }
    const real = realOrNot(input);
    const target = VIEWS.flatMap((v) => [join(out, v.name), join(out, `${v.name}.parquet`)]).find((t) => isWithin(real, t));
    if (target) {
      throw new InputError(
        `${displayPath(dir)}: exporting there would replace ${displayPath(join(dir, relative(out, target)))}, which holds the evidence it exports (${displayPath(input)}); nothing was written`,
        hint,
      );
    }
  }
  // Nor inside a probe it does not export: that is evidence too.
  refuseInsideProbe(dir, 'the export', true);
  // --force replaces a view's folder whole: one that is or holds any probe, exported or not, is refused.
  for (const target of VIEWS.flatMap((v) => [join(dir, v.name), join(dir, `${v.name}.parquet`)])) {
    const held = probeWithin(target);
    if (held) {
      throw new InputError(
        `${displayPath(dir)}: exporting there would replace ${displayPath(target)}, which holds the probe ${displayPath(held)}; nothing was written`,
        hint,
      );
    }
  }
}

/**
 * A probe folder that `dir` is or holds, its links not followed (rmSync removes a link, not what it
 * names). What cannot be looked into (DIR a file, a folder it may not read) holds none known: the
 * steps after say why the export cannot go there.
 */
function probeWithin(dir: string): string | undefined {
  try {
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
    if (isProbe(dir)) return dir;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const held = entry.isDirectory() ? probeWithin(join(dir, entry.name)) : undefined;
      if (held) return held;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * Refuse a probe whose id a hive reader reads back as NULL, merged with every other such probe:
 * DuckDB 1.5.6 reads a partition `probe=null`, in any case, or `probe=__HIVE_DEFAULT_PARTITION__`,
 * as it is spelt, as none.
 */
export function refuseNullPartitions(probes: string[]): void {
  for (const dir of probes) {
    const id = basename(dir);
    if (id.toLowerCase() === 'null' || id === '__HIVE_DEFAULT_PARTITION__') {
      throw new InputError(
        `${displayPath(dir)}: probe id "${id}" cannot be exported: a hive reader reads its partition (probe=${id}) as NULL, not as the probe`,
        'rename the probe folder: a probe is named by its folder',
      );
    }
  }
}

const LIST_HINT = 'name a folder you may read and write';

/**
 * Make `dir` ready for export: a folder, new or empty unless `force`. A path that is a file, a
 * link to nowhere or a folder that cannot be made is an error naming it, not a crash. Returns the
 * folders it made, outermost first, for a failed export to take back (inStage).
 */
export function prepareExportFolder(dir: string, force: boolean | undefined): string[] {
  let st: Stats | undefined;
  try {
    st = statSync(dir, { throwIfNoEntry: false });
  } catch (err) {
    // ENOTDIR: a file (or FIFO) stands where a folder of the path should be; else (EACCES, ELOOP) it cannot be read.
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw ioError(dir, err, 'cannot be a folder', 'name a folder whose every parent is a folder');
    throw ioError(dir, err, 'cannot be read', 'name a folder you may read and write');
  }
  if (st && !st.isDirectory()) {
    throw new InputError(`${displayPath(dir)}: exists and is not a folder`, 'name a new or empty folder for the Parquet files');
  }
  if (st && onPath(dir, () => readdirSync(dir), 'cannot be listed', LIST_HINT).length && !force) {
    throw new InputError(`${displayPath(dir)}: not empty`, 'name an empty or new folder, or pass --force to replace its views');
  }
  try {
    return makeFolders(dir);
  } catch (err) {
    throw ioError(dir, err, 'cannot make the folder', 'name a folder you may write to; a symbolic link there must point at a folder');
  }
}

/**
 * Run `write` into a new folder inside `dir`, then move each view it wrote over its old copy in
 * `dir`: an export that fails (a full disk, a query's error, a kill) replaces nothing, --force or
 * not. The folder is removed either way, and, when it fails, the `folders` made for it, while empty.
 */
export async function inStage<T>(dir: string, write: (stage: string) => Promise<T>, folders: readonly string[] = []): Promise<T> {
  let stage: string | undefined;
  let done = false;
  try {
    stage = mkdtempSync(join(dir, '.omg-export-'));
    const written = await write(stage);
    const made = readdirSync(stage);
    // A view this export does not write (the transcript views, without --transcripts) is not left
    // from an earlier export beside the ones it does: the folder holds one export.
    const gone = VIEWS.flatMap((v) => [v.name, `${v.name}.parquet`]).filter((n) => !made.includes(n));
    for (const name of [...made, ...gone]) {
      try {
        rmSync(join(dir, name), { recursive: true, force: true });
        if (made.includes(name)) renameSync(join(stage, name), join(dir, name));
      } catch (err) {
        throw ioError(join(dir, name), err, 'cannot replace it', 'name a folder whose views you may replace');
      }
    }
    done = true;
    return written;
  } finally {
    if (stage !== undefined) rmSync(stage, { recursive: true, force: true });
    if (!done) takeBackFolders(folders);
  }
}
