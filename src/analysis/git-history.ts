/**
 * A registration file's history, and how the working tree stands against HEAD: read from git's
 * output (git.ts runs the commands), never from the index git may be told to trust; and which
 * repository the probe is in.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Entry } from './git-recorded.js';
import { gitEach, type Repo } from './git-run.js';

/**
 * Each of `files`' commits (relative to the probe), as `git log -- <file>` gives them one file at a
 * time, from `all`, one `git log --name-status` over them all: when no merge commit's tree differs
 * from any of its parents' at these paths (`touched` is empty), each file's walk and the walk over
 * all of them follow the same commits (at every merge the first parent), so a file's history is the
 * commits that list it. Otherwise, or when a path needs quoting, one log per file (gitEach).
 */
export async function historiesOf(repo: Repo, files: string[], all: string | null, touched: string | null): Promise<Commit[][]> {
  if (all === null || touched !== '' || all.includes('"')) return (await gitEach(repo, LOG, files)).map(commitsOf);
  const mine = new Map<string, Commit[]>(files.map((f) => [f, []]));
  for (const { hash, date, changes } of recordsOf(all)) {
    for (const line of changes) mine.get(line.slice(line.indexOf('\t') + 1))?.push({ hash, date, added: line.startsWith('A\t') });
  }
  return files.map((f) => mine.get(f)!);
}

/**
 * How each of `files` stands against HEAD: "same" when its bytes are those HEAD holds (line endings
 * aside), "link" when
 * HEAD holds a symbolic link (git dates the link, not the file it points at), "changed" otherwise.
 * The bytes are compared (`hash-object --no-filters` against `ls-tree`), not `git status`, which
 * trusts the index's skip-worktree and assume-unchanged flags and runs filters and `ident`, all of
 * which .git/ can set.
 */
export function standing(files: string[], held: Map<string, Entry>, hashes: string | null, dir: string): ('same' | 'link' | 'changed')[] {
  const mine = (hashes ?? '').split('\n');
  return files.map((f, i) => {
    const h = held.get(f);
    if (h?.mode === '120000') return 'link';
    if (!h || hashes === null) return 'changed';
    // A checkout may have written LF as CRLF (core.autocrlf, eol=crlf): the same file, as committed.
    return h.hash === mine[i] || h.hash === blobHash(readFileSync(join(dir, f)).toString('latin1').replaceAll('\r\n', '\n'), h.hash)
      ? 'same'
      : 'changed';
  });
}

/**
 * The files HEAD holds under `registration/` that are not among `files` (the loaded parts) and that
 * the working tree has deleted, renamed or changed: what they register is not read, unseen.
 */
export function unloaded(files: string[], held: Map<string, Entry>, dir: string): string[] {
  const loaded = new Set(files);
  return [...held.keys()].filter((f) => {
    if (!f.startsWith('registration/') || loaded.has(f)) return false;
    const st = lstatSync(join(dir, f), { throwIfNoEntry: false });
    return !st?.isFile() || standing([f], held, '', dir)[0] !== 'same';
  });
}

/** The id git gives a blob of `latin1` (bytes, one character each), in the repository's own hash (SHA-1, or SHA-256 ids of 64). */
function blobHash(latin1: string, like: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  return createHash(like.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

export interface Commit {
  hash: string;
  date: string;
  /** The commit added the file (its status is A, as `--diff-filter=A` selects). */
  added: boolean;
}

export const LOG = ['log', '--no-show-signature', '--no-ext-diff', '--no-textconv', '--name-status', '--format=%x00%H%x09%cI'];

/** The records of `git log --name-status` output (LOG's format), newest first: a commit and its changed files' lines. */
function recordsOf(out: string | null): { hash: string; date: string; changes: string[] }[] {
  return (out ?? '')
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const [head, ...changes] = record.split('\n');
      const [hash, date] = head!.split('\t');
      return { hash: hash!, date: date!, changes: changes.filter(Boolean) };
    });
}

/** The commits of one file's `git log --name-status`, newest first, each with whether it added the file. */
const commitsOf = (out: string | null): Commit[] =>
  recordsOf(out).map(({ hash, date, changes }) => ({ hash, date, added: changes.some((l) => l.startsWith('A\t')) }));

/** The folder holding the `.git` (a folder, or a worktree's or submodule's file) that `dir` is under, if any. */
export function enclosingRepository(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}
