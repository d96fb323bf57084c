/**
 * What a database file records of its input files, and how a file is found changed since: for each,
 * its path, size and modification time, a SHA-256 of its content, and a SHA-256 of its first and
 * last EDGE bytes. A file whose size and mtime are as recorded has only those edges read again
 * (reading every byte of a large corpus would cost more than the cache saves; see bench/README.md);
 * one whose mtime differs is hashed in full, so that a file touched but not edited still matches.
 * What escapes (an edit between the edges that keeps the size and the mtime) is documented in
 * docs/commands.md, section `load`.
 */
import { closeSync, constants, fstatSync, openSync, statSync } from 'node:fs';
import { InputError } from '../base/errors.js';
import { hashEdges, hashFile, hashFileBeside } from '../base/hash.js';
import { displayPath } from '../base/paths.js';
import { inputFiles as files, inputListing, type Inputs } from './inputs.js';

/** The size of the first and last blocks of a file that are hashed again on every use. */
export const EDGE = 64 * 1024;

/** How this build records the input files; a database recording them otherwise is refused. */
export const FORMAT = `sha256, size, mtime and edges of ${EDGE} bytes`;

/** One input file as it was when the database was built. */
export interface Stamp {
  /** Absolute. */
  path: string;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the whole file; null when it could not be read (the load then said why). */
  content: string | null;
  /** SHA-256 of its first and last EDGE bytes (hashEdges); null as for content. */
  edges: string | null;
}

/** Every input file as it was, sorted by path; `format` is FORMAT. */
export interface Fingerprint {
  format: string;
  stamps: Stamp[];
}

// Non-blocking, so that a FIFO among the inputs is seen for what it is rather than waited on.
export const openFile = (path: string) => openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);

/** A file's size and mtime, through an open descriptor as a stamp takes them; -1 for each when it cannot be opened. */
function statOf(path: string): Pick<Stamp, 'size' | 'mtimeMs'> {
  let fd: number;
  try {
    fd = openFile(path);
  } catch {
    return { size: -1, mtimeMs: -1 };
  }
  try {
    const st = fstatSync(fd);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

const moved = (s: Pick<Stamp, 'size' | 'mtimeMs'>, then: Pick<Stamp, 'size' | 'mtimeMs'>) =>
  s.size !== then.size || s.mtimeMs !== then.mtimeMs;

const AGAIN = 'load again once nothing is writing to it';

/**
 * The stamp of the file at `path`, hashed beside the load (hashFileBeside), or an InputError when its
 * size or mtime is not `before`'s, or changes while it is read.
 */
async function stamp(path: string, before: Pick<Stamp, 'size' | 'mtimeMs'>, signal: AbortSignal): Promise<Stamp> {
  let fd: number;
  try {
    fd = openFile(path);
  } catch {
    // Unreadable: the load has said why; removed since, it reads as removed on every use.
    return { path, size: -1, mtimeMs: -1, content: null, edges: null };
  }
  try {
    const st = fstatSync(fd);
    const at = { size: st.size, mtimeMs: st.mtimeMs };
    const hashed = st.isFile() ? await hashFileBeside(fd, st.size, EDGE, signal) : { content: null, edges: null };
    if (moved(at, before) || moved(fstatSync(fd), at)) {
      throw new InputError(`${displayPath(path)}: changed while it was being loaded`, AGAIN);
    }
    return { path, ...at, ...hashed };
  } finally {
    closeSync(fd);
  }
}

/**
 * The fingerprint of the inputs: every byte of every file is read, one file at a time, while DuckDB
 * loads them. Each file's size and mtime are taken first, before DuckDB reads any: a file whose size
 * or mtime then differs when it is hashed, or changes while it is, may have been loaded with other
 * bytes than those hashed, and the load fails rather than record them (unmovedSince looks again
 * once the load is done). `loaded` is the files loading should have read, listed in the same moment
 * (loadedAsListed compares it with what the tables were built from).
 */
export function fingerprinting(inputs: Inputs, signal: AbortSignal): { loaded: string[]; fingerprint: Promise<Fingerprint> } {
  const { loaded, all: paths } = inputListing(inputs);
  const before = paths.map(statOf);
  const fingerprint = (async () => {
    const stamps: Stamp[] = [];
    for (const [i, path] of paths.entries()) stamps.push(await stamp(path, before[i]!, signal));
    return { format: FORMAT, stamps };
  })();
  return { loaded, fingerprint };
}

/**
 * Throws unless `built` (the files the tables were built from) is `loaded`, as fingerprinting
 * listed them. The loader lists the inputs itself, a moment later: a file moved away and back
 * in between keeps its mtime, and would leave its records out of a database that reads as fresh.
 */
export function loadedAsListed(loaded: string[], built: string[]): void {
  const had = new Set(built);
  const missing = loaded.find((f) => !had.has(f));
  if (missing) throw new InputError(`${displayPath(missing)}: was moved or removed while the inputs were being loaded`, AGAIN);
  const listed = new Set(loaded);
  const extra = built.find((f) => !listed.has(f));
  if (extra) throw new InputError(`${displayPath(extra)}: appeared while the inputs were being loaded`, AGAIN);
}

/** The first input file that `recorded` does not list, and the first it lists that is gone, by path. */
function listChanged(recorded: Fingerprint, inputs: Inputs): { added?: string; removed?: string } {
  const now = files(inputs);
  const then = new Set(recorded.stamps.map((s) => s.path));
  const listed = new Set(now);
  return { added: now.find((f) => !then.has(f)), removed: recorded.stamps.find((s) => !listed.has(s.path))?.path };
}

/**
 * Throws unless the inputs are still the files of `fp`, each with its size and mtime: called once
 * DuckDB has read them all. A file is hashed before DuckDB may read it, so one edited during or after
 * its hash (and put back before --db looks, with a new mtime) would otherwise be recorded as hashed.
 */
export function unmovedSince(fp: Fingerprint, inputs: Inputs): void {
  const { added, removed } = listChanged(fp, inputs);
  if (added) throw new InputError(`${displayPath(added)}: appeared while the inputs were being loaded`, AGAIN);
  if (removed) throw new InputError(`${displayPath(removed)}: was removed while it was being loaded`, AGAIN);
  const changedNow = fp.stamps.find((s) => moved(statOf(s.path), s));
  if (changedNow) throw new InputError(`${displayPath(changedNow.path)}: changed while it was being loaded`, AGAIN);
}

/** Why the file of `s` is not as it was (one line), or null when it is. `exact`: see staleness. */
function changed(s: Stamp, exact: boolean): string | null {
  const p = displayPath(s.path);
  let fd: number;
  try {
    fd = openFile(s.path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${p} was removed since it was built` : `${p} cannot be read (${code})`;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return `${p} is not a regular file`;
    if (st.size !== s.size) return `${p} changed since it was built`;
    if (exact && st.mtimeMs !== s.mtimeMs) return `${p} was touched since it was built`;
    // Same size and mtime: only the edges are read again. Another mtime: the whole content decides.
    const same = st.mtimeMs === s.mtimeMs ? hashEdges(fd, st.size, EDGE) === s.edges : hashFile(fd) === s.content;
    return same ? null : `${p} changed since it was built`;
  } finally {
    closeSync(fd);
  }
}

export const isFingerprint = (f: unknown): f is Fingerprint =>
  typeof f === 'object' &&
  f !== null &&
  (f as Fingerprint).format === FORMAT &&
  Array.isArray((f as Fingerprint).stamps) &&
  (f as Fingerprint).stamps.every(
    (s) =>
      typeof s === 'object' &&
      s !== null &&
      typeof s.path === 'string' &&
      typeof s.size === 'number' &&
      typeof s.mtimeMs === 'number' &&
      (s.content === null || typeof s.content === 'string') &&
      (s.edges === null || typeof s.edges === 'string'),
  );

/** Why the input files are not as `recorded` says (naming the first that differs), or null. */
export function filesChanged(recorded: Fingerprint, inputs: Inputs, exact: boolean): string | null {
  const { added, removed } = listChanged(recorded, inputs);
  if (added) return `${displayPath(added)} was added since it was built`;
  if (removed) return `${displayPath(removed)} was removed since it was built`;
  for (const s of recorded.stamps) {
    const why = changed(s, exact);
    if (why) return why;
  }
  return null;
}

/**
 * A file that shrank, or was replaced or removed, while it was read gave part of its lines, and
 * the tables would count them as all: an error. One that grew is a live session's, read as far
 * as the pass reached.
 */
export function readWhole(sized: { abs: string; size: number; ino: number }[]): void {
  for (const f of sized) {
    const st = statSync(f.abs, { throwIfNoEntry: false });
    if (st && st.ino === f.ino && st.size >= f.size) continue;
    const how = !st ? 'it was removed' : st.ino !== f.ino ? 'it was replaced' : `${f.size} bytes became ${st.size}`;
    throw new InputError(`${displayPath(f.abs)}: changed while it was being read (${how})`, 'read it again once nothing rewrites it');
  }
}
