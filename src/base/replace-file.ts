/**
 * Replacing a file the user named (a rendered document, a report) only if it still holds what was
 * read: atomically (a temporary file beside it, then a rename), through a symbolic link to the file it
 * names (the link stays a link), keeping the file's mode; so an edit made meanwhile is never lost.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from './errors.js';
import { ioError, onPath } from './io-error.js';
import { displayPath, isWithin, realPath } from './paths.js';

/** `p` with symbolic links resolved, for a path that may not exist yet: its nearest existing folder's real path, then the rest. */
export function realOrNot(p: string): string {
  const abs = resolve(p);
  if (existsSync(abs)) return realPath(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realOrNot(parent), basename(abs));
}

/** `p` as realOrNot gives it, a symbolic link followed even when what it names does not exist yet; undefined in a loop. */
export function linkedOrNot(p: string, hops = 0): string | undefined {
  if (!onPath(p, () => lstatSync(p, { throwIfNoEntry: false }))?.isSymbolicLink()) return realOrNot(p);
  return hops < 40 ? linkedOrNot(resolve(dirname(p), readlinkSync(p)), hops + 1) : undefined;
}

/**
 * The probe folder that `file` is inside, if any: one that holds a results.jsonl file and a tool_use/
 * or registration/ folder. A results.jsonl alone (an eval harness's, a stray one in a home folder)
 * had made every folder below it a probe that nothing could be written into.
 */
export function probeHolding(file: string, dir = dirname(file)): string | undefined {
  if (isProbe(dir)) return dir;
  return dirname(dir) === dir ? undefined : probeHolding(file, dirname(dir));
}

/** Whether `dir` is a probe folder (probeHolding). */
export function isProbe(dir: string): boolean {
  const stat = (name: string) => statSync(join(dir, name), { throwIfNoEntry: false });
  try {
    return (
      stat('results.jsonl')?.isFile() === true && (stat('tool_use')?.isDirectory() === true || stat('registration')?.isDirectory() === true)
    );
  } catch {
    // A folder that cannot be looked into (EACCES) is not known to be one: as existsSync had read it.
    return false;
  }
}

/**
 * A temporary name beside `file`, for this process: its own name and the pid, or the pid alone where
 * that would be longer than a name may be (a legal 240-byte name had failed as if it could not be written).
 */
function tempBeside(file: string, suffix = ''): string {
  const name = `${basename(file)}.omg-evidence-${process.pid}${suffix}.tmp`;
  return join(dirname(file), Buffer.byteLength(name) > 255 ? `omg-evidence-${process.pid}${suffix}.tmp` : name);
}

/**
 * Make a new temporary file beside `file` holding `data` (writeNewFile), and return its path. A file
 * already at its name (a killed run's, whose pid came round again) is someone else's and stays: another
 * name, drawn at random, is tried, where failing had blocked every later run until it was removed.
 */
export function writeNewBeside(file: string, data: string, mode = 0o666): string {
  for (let attempt = 0; ; attempt++) {
    const tmp = tempBeside(file, attempt === 0 ? '' : `-${randomBytes(6).toString('hex')}`);
    try {
      writeNewFile(tmp, data, mode);
      return tmp;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 4) throw e;
    }
  }
}

/**
 * Make the new file `path` holding `data` (exclusive creation: a file or link already there is never
 * written through or removed). Once made it is this call's: a write that fails part-way (EFBIG, ENOSPC)
 * removes it, where recording it only after the write had left it half-written.
 */
export function writeNewFile(path: string, data: string, mode = 0o666): void {
  const fd = openSync(path, 'wx', mode);
  try {
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    try {
      rmSync(path, { force: true });
    } catch {
      // The write's own error is the one to tell.
    }
    throw e;
  }
}

/**
 * Whether `path` is `folder` or inside it, as both resolve or as both are written: a folder of the
 * evidence that is a link (a probe's transcripts/) leads elsewhere, and is reached by its name too.
 */
export function withinEitherWay(path: string, folder: string): boolean {
  return isWithin(realOrNot(path), realOrNot(folder)) || isWithin(resolve(path), resolve(folder));
}

/**
 * Refuse `file`, which a command is about to write (`what`), when it is one of `folders` or inside
 * one: the evidence the command reads, which is read-only, --force or not.
 */
export function refuseInsideEvidence(
  file: string,
  folders: readonly string[],
  what: string,
  where = 'every probe and transcripts folder',
): void {
  const inside = folders.find((f) => withinEitherWay(file, f));
  if (inside !== undefined) {
    throw new InputError(
      `${displayPath(file)}: inside the evidence it reads (${displayPath(inside)}); nothing was written`,
      `write ${what} outside ${where}: evidence is read-only`,
    );
  }
}

/**
 * Refuse `path`, which a command is about to write (`what`: a file, or a folder when `folder`), when it
 * is inside any probe folder (one above it holds results.jsonl), as it resolves or as written, read or not: another probe is
 * evidence too, read-only, --force or not, as init and extract hold.
 */
export function refuseInsideProbe(
  path: string,
  what: string,
  folder = false,
  hint = `write ${what} outside every probe folder: a probe is evidence, and read-only`,
): void {
  const holding = (p: string) => probeHolding(folder ? join(p, 'results.jsonl') : p);
  // Above the path as it resolves, and as written: a probe's transcripts/ may be a link to a folder outside it.
  const holder = holding(realOrNot(path)) ?? holding(resolve(path));
  if (holder !== undefined)
    throw new InputError(`${displayPath(path)}: inside the probe ${displayPath(holder)}; nothing was written`, hint);
}

/**
 * A check that `path`'s folder still resolves where it did when this was called, to run right before a write: a
 * folder on the path swapped for a symbolic link meanwhile (into a probe) had been written through. The moment
 * between that check and the write is left.
 */
export function folderStays(path: string): () => void {
  const where = () => realOrNot(dirname(resolve(path)));
  const was = where();
  return () => {
    const now = where();
    if (now !== was)
      throw new InputError(
        `${displayPath(path)}: its folder now resolves to ${displayPath(now)}, not ${displayPath(was)} as when it was checked; nothing was written`,
        'run it again once nothing moves the folder',
      );
  };
}

/** What a refusal says: what changed meanwhile, what to run again, and what could not be written. */
export interface ReplaceWords {
  changed: string;
  again: string;
  what: string;
  writable: string;
  /** What was written all the same, said of a refusal (default: "nothing was written"). */
  written?: string;
}

/**
 * Write `data` to `path` if it still holds `expected` (null: no file there yet, which is made with
 * mode 0644 less the umask); otherwise refuse, writing nothing.
 */
export function replaceFile(path: string, expected: Buffer | null, data: string, say: ReplaceWords, recheck = () => {}): void {
  let tmp: string | undefined;
  try {
    const file = existsSync(path) ? realPath(path) : path;
    const mode = expected === null ? 0o644 : statSync(file).mode & 0o7777;
    // Right before each step: the folder as it was checked (folderStays).
    recheck();
    tmp = writeNewBeside(file, data, mode);
    // The mode given at creation is masked by the umask: a file replaced keeps its own.
    if (expected !== null) chmodSync(tmp, mode);
    const now = existsSync(file) ? readFileSync(file) : null;
    if (now === null ? expected !== null : expected === null || !now.equals(expected)) {
      throw new InputError(`${displayPath(path)}: ${say.changed}; ${say.written ?? 'nothing was written'}`, say.again);
    }
    recheck();
    renameSync(tmp, file);
    tmp = undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof InputError || !code) throw e;
    throw ioError(path, e, `cannot write ${say.what}`, say.writable);
  } finally {
    if (tmp !== undefined) rmSync(tmp, { force: true });
  }
}
