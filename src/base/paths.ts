/**
 * Where things are: the package root (found from this module, so it works from src/ under vitest
 * and from the bundle in dist/ when installed), the bundled probe, the queries folder, and how a
 * path is shown to a user (relative to the working directory when it is inside it, so output is
 * stable).
 */
import {
  accessSync,
  constants,
  type Dirent,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './errors.js';
import { danglingLink, ioError, linkLoop } from './io-error.js';
import { displayPath, isWithin } from './paths-shown.js';

// Where most callers have always found them.
export { displayPath, isWithin };

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'omg-evidence') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('omg-evidence: cannot find the package root');
    dir = up;
  }
}

/** The package's own directory. */
export const packageRoot: string = findRoot();

/** The probe every command uses when given no path. */
export const BUNDLED_PROBE = 'evidence/0017-staged-agent-restores-layer-1';
export const bundledProbeDir: string = join(packageRoot, BUNDLED_PROBE);

/** Folder of the public queries; a query's file name is its public name. */
export const queriesDir: string = join(packageRoot, 'queries');

/** The internal SQL the package ships (loaders, macros). */
export const sqlDir: string = join(packageRoot, 'sql');

/** The package version, for provenance lines and --version. */
export const packageVersion: string = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).version;

/** Every file under `dir` (recursively, sorted by path) that `keep` accepts; none when `dir` is absent. */
export function listFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  return walkFiles(dir, keep).map((f) => f.path);
}

export interface WalkOptions {
  /** A folder whose name `keep` accepts is an error rather than a folder to walk (a `x.jsonl/`). */
  keptNamesAreFiles?: boolean;
  /** Entries of these names are passed over, folders unwalked (audit: `.git`, whose objects and sockets are git's). */
  skip?: readonly string[];
  /** List a link to a file read by another name too (audit: git commits the link itself). */
  eachLink?: boolean;
}

/**
 * listFiles, with each file's path relative to `dir` ('/'-separated) too. Paths are joined by
 * hand as the walk goes (path.join and path.relative cost three times the listing itself on
 * a thousand files); they come out as path.join would write them.
 *
 * Every kept entry is a readable regular file, or an InputError naming it (inputFile): a FIFO would
 * hang whoever opens it. A symbolic link is followed only within `dir`, and only once the tree has
 * been walked without links, so that a file or folder reached both by its name and through a link
 * (or through two links) is read once, by its name when it has one.
 */
export function walkFiles(
  dir: string,
  keep: (name: string) => boolean = () => true,
  options: WalkOptions = {},
): { path: string; rel: string }[] {
  const out: { path: string; rel: string }[] = [];
  const root = normalize(dir);
  if (!existsSync(root)) return out;
  const realRoot = realpathSync(root);
  // Real paths of the folders walked and the files kept; the links met, to follow after.
  const seen = new Set<string>();
  const links: { p: string; r: string; kept: boolean }[] = [];
  const walk = (prefix: string, rel: string, real: string) => {
    seen.add(real);
    // Entry types come with the listing; only a symbolic link needs a stat to say what it points at.
    const entries = listDir(prefix === '' ? '.' : prefix).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (options.skip?.includes(e.name)) continue;
      const p = prefix + e.name;
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      const kept = keep(e.name);
      if (e.isSymbolicLink()) links.push({ p, r, kept });
      else if (e.isDirectory() && !(kept && options.keptNamesAreFiles)) walk(p + sep, r, `${real}${sep}${e.name}`);
      else if (kept) {
        if (e.isFile()) mustRead(p);
        else inputFile(p, realRoot, root);
        out.push({ path: p, rel: r });
        seen.add(`${real}${sep}${e.name}`);
      }
    }
  };
  walk(root === '.' ? '' : root.endsWith(sep) ? root : root + sep, '', realRoot);
  for (let i = 0; i < links.length; i++) {
    const { p, r, kept } = links[i]!;
    const real = resolveLink(p, realRoot, root);
    const isDir = statSync(real).isDirectory();
    if (seen.has(real) && (isDir || !options.eachLink)) continue;
    if (isDir && !(kept && options.keptNamesAreFiles)) walk(p + sep, r, real);
    else if (kept) {
      inputFile(p, realRoot, root);
      out.push({ path: p, rel: r });
      seen.add(real);
    }
  }
  // In the order of a walk that follows links where it meets them: by path, one name at a time.
  if (links.length) out.sort((x, y) => byNames(x.rel.split('/'), y.rel.split('/')));
  return out;
}

function byNames(x: string[], y: string[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

const NOT_REGULAR_HINT = 'an input folder holds only regular files and folders: remove it, or put the file itself in its place';

/** What `st` is, in words, when it is not a regular file. */
/**
 * realpathSync, for a path that exists: `/dev/stdout` or `/proc/self/fd/1` that is a pipe or a
 * socket resolves to no path (`/proc/<pid>/fd/pipe:[…]`), and is then the path as given, which its
 * callers stat and refuse as what it is. Throws as realpathSync does when nothing is there.
 */
export function realPath(p: string): string {
  const real = realpathSync(p);
  return existsSync(real) || !existsSync(p) ? real : resolve(p);
}

export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The real path of symbolic link `p`, which must resolve to something inside `realRoot` (the real
 * path of `folder`, as the user named it). A dangling link, a loop, or a link out of the folder
 * is an InputError naming `p`.
 */
function resolveLink(p: string, realRoot: string, folder: string): string {
  let real: string;
  try {
    real = realPath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw linkLoop(p, NOT_REGULAR_HINT, err);
    throw (code === 'ENOENT' && danglingLink(p, NOT_REGULAR_HINT)) || ioError(p, err);
  }
  if (!isWithin(real, realRoot)) {
    throw new InputError(
      `${displayPath(p)}: a symbolic link that resolves outside ${displayPath(folder)} (to ${real}); nothing was read from it`,
      'evidence is read from inside its folder: copy the file in rather than linking to it',
    );
  }
  return real;
}

/** What `p` is, following a symbolic link that must resolve inside `realRoot`; undefined when nothing is there. */
function inputStat(p: string, realRoot: string, folder: string): Stats | undefined {
  let st: Stats;
  try {
    st = lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(p, err);
  }
  return st.isSymbolicLink() ? statSync(resolveLink(p, realRoot, folder)) : st;
}

/**
 * Check that `p`, an input inside `folder`, is a regular file this process can read, before anyone
 * opens it: a symbolic link must resolve inside the folder; a FIFO, a directory, a device or an
 * unreadable file is an InputError naming `p`. Returns false when nothing is there.
 */
export function inputFile(p: string, realRoot: string, folder: string): boolean {
  const st = inputStat(p, realRoot, folder);
  if (!st) return false;
  if (!st.isFile())
    throw new InputError(`${displayPath(p)}: ${kindOf(st)}, where a file is expected; nothing was read from it`, NOT_REGULAR_HINT);
  mustRead(p);
  return true;
}

/**
 * The real path of file `p` that the user named (a symbolic link may point anywhere), or undefined
 * when nothing is there. A dangling link, a loop, a FIFO, a folder, a device or an unreadable file
 * is an InputError naming `p`, before anything opens it (opening a FIFO would wait for a writer).
 */
export function namedFile(p: string, expected: string): string | undefined {
  let real: string;
  try {
    real = realPath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw linkLoop(p, `give the path of ${expected}`, err);
    if (code !== 'ENOENT') throw ioError(p, err);
    const dangling = danglingLink(p, `give the path of ${expected}`);
    if (dangling) throw dangling;
    return undefined;
  }
  const st = statSync(real);
  if (!st.isFile()) throw new InputError(`${displayPath(p)}: ${kindOf(st)}, where ${expected} is expected`, `give the path of ${expected}`);
  mustRead(real);
  return real;
}

/** An InputError (EACCES) unless this process may read `p`. */
export function mustRead(p: string): void {
  try {
    accessSync(p, constants.R_OK);
  } catch (err) {
    throw ioError(p, err);
  }
}

/**
 * Check that `p` is a folder (following a symbolic link within `realRoot`), or absent (false). A
 * file where the folder should be is an InputError (ENOTDIR).
 */
export function inputFolder(p: string, realRoot: string, folder: string): boolean {
  const st = inputStat(p, realRoot, folder);
  if (!st) return false;
  if (!st.isDirectory())
    throw new InputError(
      `${displayPath(p)}: ${st.isFile() ? 'a file' : kindOf(st)}, where a folder is expected (ENOTDIR)`,
      NOT_REGULAR_HINT,
    );
  return true;
}

/** The entries of folder `p`, with their types; a folder that cannot be listed (EACCES) is an InputError naming it. */
export function listDir(p: string): Dirent[] {
  try {
    return readdirSync(p, { withFileTypes: true });
  } catch (err) {
    throw ioError(p, err);
  }
}

/**
 * `mkdir -p`, a folder at a time (Node's recursive mkdirSync retries forever where mkdir says ENOENT
 * under a parent that exists, as under /proc/self). Throws mkdir's error, or ENOENT or ENOTDIR when
 * `dir` is then no folder, for the caller to word. Returns the folders it made, outermost first.
 */
export function makeFolders(dir: string): string[] {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!lstatSync(at, { throwIfNoEntry: false })) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  const made: string[] = [];
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
      made.push(folder);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process's, made meanwhile
    }
  }
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) {
    const code = st ? 'ENOTDIR' : 'ENOENT';
    throw Object.assign(new Error(`${code}: not a folder: ${dir}`), { code });
  }
  return made;
}

/** Remove the folders makeFolders `made` (outermost first), innermost first, each only while empty: what another process wrote stays. */
export function takeBackFolders(made: readonly string[]): void {
  for (const folder of [...made].reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty, or gone: left as it is.
    }
  }
}
