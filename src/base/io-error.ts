/**
 * A file-system failure on a path (EACCES, ENAMETOOLONG, a NUL in the name, …) as the one-line
 * InputError every reader and writer gives: the path, what could not be done, the system's code, and
 * what to do; never "unexpected error".
 */
import { lstatSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError, OmgError } from './errors.js';
import { maskHomePaths } from './home-paths.js';
import { displayPath } from './paths-shown.js';

const READ_HINT = 'check that the file exists and that you may read it';
const LOOP_HINT = 'point the link at a file or folder that exists, or give another path';
const TOO_LONG_HINT = 'shorten the name or the path: it is longer than the file system allows';

/** An I/O failure on `p` as an InputError: `p: what (CODE) (hint)`. */
export function ioError(p: string, err: unknown, what = 'cannot be read', hint = READ_HINT): InputError {
  const e = err as NodeJS.ErrnoException;
  // Node refuses a path holding a NUL before any system call; shown escaped, as no terminal shows it.
  if (e.code === 'ERR_INVALID_ARG_VALUE' && /null bytes/.test(e.message)) {
    return new InputError(
      `${displayPath(p).replaceAll('\0', '\\0')}: ${what}: a path cannot hold a NUL byte`,
      'remove the NUL from the name',
      { cause: err },
    );
  }
  // A name listed with bytes that are not UTF-8 comes back with U+FFFD, and no file has that name.
  if (e.code === 'ENOENT' && p.includes('\ufffd')) {
    return new InputError(`${displayPath(p)}: its name is not UTF-8, so it cannot be opened by name`, 'rename it (or its folder)', {
      cause: err,
    });
  }
  if (e.code === 'ENAMETOOLONG') {
    return new InputError(`${displayPath(p)}: ${what} (ENAMETOOLONG)`, TOO_LONG_HINT, { cause: err });
  }
  // As paths.ts says it of a file: "cannot be read … check that the file exists" sent the user after a file.
  if (e.code === 'ELOOP' && what === 'cannot be read') {
    return linkLoop(p, LOOP_HINT, err);
  }
  const said = e.code === 'ENOTDIR' && what === 'cannot be read' ? 'a path through a file, where a folder is expected' : what;
  return new InputError(`${displayPath(p)}: ${said} (${e.code ?? e.message})`, hint, { cause: err });
}

/** What `step` gives; a system error it throws on `p` becomes ioError's InputError, anything else passes as it is. */
export function onPath<T>(p: string, step: () => T, what?: string, hint?: string): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof OmgError || typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    throw ioError(p, err, what, hint);
  }
}

/** `p` as a symbolic link loop (ELOOP), which every reader names so. */
export const linkLoop = (p: string, hint: string, cause?: unknown): InputError =>
  new InputError(`${displayPath(p)}: a symbolic link loop (ELOOP)`, hint, { cause });

/**
 * An InputError when `p` is a symbolic link to nothing, naming what it points at: "no such" sent the user after `p`.
 * Through a link to a link, each is named, as the link holds it: the last is what does not exist.
 */
export function danglingLink(p: string, hint: string): InputError | undefined {
  if (!lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
  const targets = [readlinkSync(p)];
  // Each hop from its link's real folder, as the system follows it (a `..` after a linked folder); never one twice.
  const seen = new Set<string>();
  for (let link = p; targets.length < 40; ) {
    let at: string;
    try {
      at = resolve(realpathSync(dirname(link)), targets.at(-1)!);
    } catch {
      break; // its folder is not there to follow: the chain ends
    }
    if (seen.has(at) || !lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) break;
    seen.add(at);
    targets.push(readlinkSync(at));
    link = at;
  }
  const chain = targets.map((t) => maskHomePaths(t)).join(', a link to ');
  return new InputError(`${displayPath(p)}: a dangling symbolic link: it points at ${chain}, which does not exist`, hint);
}

/**
 * `p`'s stat (through links), or undefined when nothing is there (ENOENT). Any other failure (EACCES,
 * ELOOP, ENAMETOOLONG, ENOTDIR: a path through a file) is ioError's InputError: existsSync reads each
 * as "no such file", which sends the user after the wrong cause.
 */
export function statThere(p: string, what?: string, hint?: string): Stats | undefined {
  try {
    return statSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(p, err, what, hint);
  }
}
