/**
 * Where in git's history a spawn was first recorded, and what the registration held just before.
 * A commit's date can be set to anything, and a side branch merged later brings its own dates; what
 * a commit's parents hold cannot be changed by a later commit. So a registration file came before a
 * spawn only when HEAD holds the bytes it had in every parent of every commit that first recorded
 * the spawn's row in results.jsonl, in HEAD's full history (a merge counts).
 */
import { type GitCall, gitAll, type Repo } from './git-run.js';

/** A commit of results.jsonl's full history (or a parent of one): its hash and its parents'. */
export interface Touch {
  hash: string;
  parents: string[];
}

/** An entry of `git ls-tree`: its mode and object id. */
export interface Entry {
  mode: string;
  hash: string;
}

/**
 * The commits of HEAD's full history whose results.jsonl differs from a parent's (no history
 * simplification, so a merge counts), with their parents: every commit that first records a row
 * is one (its parents lack the row its own file holds).
 */
export const resultsLog = (path: string): GitCall => ({
  args: ['log', '--no-show-signature', '--full-history', '--format=%H %P', 'HEAD', '--', path],
});

export const touchesOf = (out: string): Touch[] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, ...parents] = line.split(' ').filter(Boolean);
      return { hash: hash!, parents };
    });

/** `git ls-tree -z` output as a map from path (relative to where git ran) to entry. */
export function entriesOf(out: string): Map<string, Entry> {
  const held = new Map<string, Entry>();
  for (const entry of out.split('\0').filter(Boolean)) {
    const tab = entry.indexOf('\t');
    const [mode, , hash] = entry.slice(0, tab).split(' ');
    held.set(entry.slice(tab + 1), { mode: mode!, hash: hash! });
  }
  return held;
}

/**
 * `id` as a JSON string, for `git grep -E`: each character as itself or as its \u escape (a row
 * written with escapes is the same row, and must not pass for one recorded later).
 */
export function jsonString(id: string): string {
  const chars = [...id].map((c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    const escaped = hex.replace(/[a-f]/g, (x) => `[${x}${x.toUpperCase()}]`);
    // A control character stands in a JSON line escaped only (and a newline would split the pattern file).
    if (c < ' ') return `\\\\u${escaped}`;
    return `(${c.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&')}|\\\\u${escaped})`;
  });
  return `"${chars.join('')}"`;
}

/** The sessions a match of jsonString's patterns stands for: its \u escapes decoded, or (an id holding a backslash) each pattern tried. */
function sessionsOf(sessions: string[]): (match: string) => string[] {
  const known = new Set(sessions);
  const slashed = sessions.filter((s) => s.includes('\\')).map((s) => [s, new RegExp(`^${jsonString(s)}$`)] as const);
  return (match) => {
    const id = match.slice(1, -1).replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    const found = known.has(id) ? [id] : [];
    return [...found, ...slashed.flatMap(([s, re]) => (s !== id && re.test(match) ? [s] : []))];
  };
}

const revsOf = (touches: Touch[]) => [...new Set(touches.flatMap((t) => [t.hash, ...t.parents]))];

/** The commits whose trees are read in the greps' shell: all of them, when so few (a probe's results are committed a few times). */
const EARLY = 16;

/** Commits per `git grep` (its arguments stay far below ARG_MAX), and sessions per pattern. */
const REVS_PER_GREP = 1000;
const SESSIONS_PER_GREP = 500;

const chunks = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, k) => xs.slice(k * n, (k + 1) * n));

const grepCount = (touches: Touch[], sessions: string[]) =>
  Math.ceil(revsOf(touches).length / REVS_PER_GREP) * Math.ceil(sessions.length / SESSIONS_PER_GREP);

const treeCall = (commit: string, paths: string[]): GitCall => ({ args: ['ls-tree', '-r', '-z', commit, '--', 'registration', ...paths] });

/**
 * `git grep -o` for the sessions at once, over the commits of `touches` and their parents: each blob
 * is read once, not once a session. One pattern, their alternation, on stdin (-f -): git tries each
 * of several patterns on every line, twenty times slower. Then, when the commits are few, each one's
 * entries under `registration/` and at `paths`, saving treesAt a shell.
 */
export function grepCalls(path: string, touches: Touch[], sessions: string[], paths: string[]): GitCall[] {
  const revs = revsOf(touches);
  if (!revs.length || !sessions.length) return [];
  const greps = chunks(sessions, SESSIONS_PER_GREP).flatMap((some) =>
    chunks(revs, REVS_PER_GREP).map((batch) => ({
      // -a: a blob git takes for binary (a NUL byte in it) would print "Binary file … matches", not its rows.
      args: ['grep', '-a', '-o', '-z', '-E', '-f', '-', ...batch, '--', path],
      input: `${some.map(jsonString).join('|')}\n`,
      // 1: no match in this batch. git grep that cannot read a blob says so and still exits 1: what it
      // says follows its output, as a line that is no match.
      none: 1,
      said: true,
    })),
  );
  return [...greps, ...(revs.length <= EARLY ? revs.map((c) => treeCall(c, paths)) : [])];
}

/** One line of grepCalls' output: `<rev>:<path>\0<match>`, the match a JSON string. */
const MATCH = /^([0-9a-f]{40}|[0-9a-f]{64}):[^\0\n]*\0("[^\n]*")$/;

/**
 * For each session, the commits that first recorded it: their results.jsonl holds it and none of
 * their parents' does. 'unread' when a grep failed, and null when a line of its output is not a
 * match: a row it held would otherwise read as never recorded.
 */
export function recordersOf(outs: (string | null)[], touches: Touch[], sessions: string[]): Map<string, Touch[]> | 'unread' | null {
  const holding = new Map(sessions.map((s) => [s, new Set<string>()]));
  const of = sessionsOf(sessions);
  const greps = outs.slice(0, grepCount(touches, sessions));
  // A grep that failed, or said it could not read something (git's "error:" and "fatal:").
  if (greps.some((out) => out === null || /^(error|fatal): /m.test(out))) return 'unread';
  // One line per match (a match is one line's; none in a batch: grep exits 1, ''), beside what git
  // says that is no failure (a hint of GIT_GRAFT_FILE's, a warning).
  for (const out of greps as string[]) {
    for (const line of out.split('\n').slice(0, -1)) {
      if (/^(hint|warning): /.test(line)) continue;
      const m = MATCH.exec(line);
      if (!m) return null;
      for (const s of of(m[2]!)) holding.get(s)!.add(m[1]!);
    }
    if (out && !out.endsWith('\n')) return null;
  }
  return new Map(
    sessions.map((session) => {
      const held = holding.get(session)!;
      return [session, touches.filter((t) => held.has(t.hash) && !t.parents.some((p) => held.has(p)))];
    }),
  );
}

/** How a file stands at the commits that first recorded its spawn. */
export type Placed = { order: 'after' } | { order: 'changed'; since: string } | { order: 'same'; commit: string } | { order: 'before' };

/**
 * `file` (HEAD's `head` blob) against `recs`, the commits that first recorded the spawn it governs,
 * with `trees` their and their parents' entries: "after" when a parent lacks it (or the commit has
 * none, and does not hold it), "changed" when a parent holds other bytes (`since`: that parent),
 * "same" when it arrived in the recording commit itself.
 */
export function place(file: string, head: string, recs: Touch[], trees: Map<string, Map<string, Entry>>): Placed {
  let same: string | null = null;
  for (const r of recs) {
    for (const q of r.parents.length ? r.parents : [null]) {
      const held = q === null ? undefined : trees.get(q)?.get(file)?.hash;
      if (held === undefined) {
        if (trees.get(r.hash)?.get(file)?.hash !== head) return { order: 'after' };
        same ??= r.hash;
      } else if (held !== head) return { order: 'changed', since: q! };
    }
  }
  return same === null ? { order: 'before' } : { order: 'same', commit: same };
}

/** A spawn a part governs. */
export interface Governed {
  session: string;
  started_at: string;
}

/**
 * `file` against every spawn it governs (`spawns`, earliest first), any of whose rows may have been
 * recorded first (its started_at is the data's, and can say anything): the first "after" or
 * "changed", else "same", else "before"; `at` is the spawn it was found at, and `unrecorded` says
 * that no commit records one of them.
 */
export function placeAll(
  file: string,
  head: string,
  spawns: Governed[],
  recorded: Map<string, Touch[]>,
  trees: Map<string, Map<string, Entry>>,
): { placed: Placed; at: Governed | null; unrecorded: boolean } {
  let same: { placed: Placed; at: Governed } | null = null;
  let unrecorded = false;
  for (const s of spawns) {
    const recs = recorded.get(s.session) ?? [];
    if (!recs.length) unrecorded = true;
    const placed = place(file, head, recs, trees);
    if (placed.order === 'after' || placed.order === 'changed') return { placed, at: s, unrecorded };
    if (placed.order === 'same') same ??= { placed, at: s };
  }
  return { ...(same ?? { placed: { order: 'before' }, at: null }), unrecorded };
}

/**
 * The files under `registration/` that a parent of a commit that first recorded a spawn held and
 * HEAD does not (removed after that spawn), each with the earliest such spawn (`spawns` earliest first).
 */
export function removedFiles(
  spawns: Governed[],
  recorded: Map<string, Touch[]>,
  trees: Map<string, Map<string, Entry>>,
  head: Map<string, Entry>,
): Map<string, Governed> {
  const removed = new Map<string, Governed>();
  for (const s of spawns) {
    for (const r of recorded.get(s.session) ?? []) {
      for (const q of r.parents) {
        for (const f of trees.get(q)!.keys()) if (f.startsWith('registration/') && !head.has(f) && !removed.has(f)) removed.set(f, s);
      }
    }
  }
  return removed;
}

/**
 * The entries under `registration/` and at `paths` in each of `commits`: those grepCalls read (`outs`
 * after the greps), and the others by one ls-tree each in one shell; null when git cannot read one.
 */
export async function treesAt(
  repo: Repo,
  commits: string[],
  paths: string[],
  early: { touches: Touch[]; sessions: string[]; outs: (string | null)[] },
): Promise<Map<string, Map<string, Entry>> | null> {
  const revs = revsOf(early.touches);
  const greps = grepCount(early.touches, early.sessions);
  const read = new Map(revs.length <= EARLY ? revs.map((c, i) => [c, early.outs[greps + i] ?? null]) : []);
  const rest = commits.filter((c) => !read.has(c));
  const outs = rest.length
    ? await gitAll(
        repo,
        rest.map((c) => treeCall(c, paths)),
      )
    : [];
  for (const [i, c] of rest.entries()) read.set(c, outs[i] ?? null);
  if (commits.some((c) => read.get(c) === null)) return null;
  return new Map(commits.map((c) => [c, entriesOf(read.get(c)!)]));
}

export interface Dated {
  hash: string;
  date: string;
}

/**
 * The commits to name, in one shell: for each change (a file, and the parent `since` whose bytes
 * HEAD's differ from), the first commit after `since` that changed it; for each removed path, the
 * last commit that removed it. Null where git says none.
 */
export async function namedCommits(repo: Repo, changes: { file: string; since: string }[], removed: string[]): Promise<(Dated | null)[]> {
  if (!changes.length && !removed.length) return [];
  const log = ['log', '--no-show-signature', '--full-history', '--no-renames', '--topo-order', '--format=%H%x09%cI'];
  const outs = await gitAll(repo, [
    ...changes.map((c) => ({ args: [...log, `^${c.since}`, 'HEAD', '--', c.file] })),
    ...removed.map((f) => ({ args: [...log, '--diff-filter=D', 'HEAD', '--', f] })),
  ]);
  return outs.map((out, i) => {
    const lines = (out ?? '').split('\n').filter(Boolean);
    // Oldest first after `since` (the last line, children listed before parents); a removal's newest.
    const line = i < changes.length ? lines.at(-1) : lines[0];
    if (!line) return null;
    const [hash, date] = line.split('\t');
    return { hash: hash!, date: date! };
  });
}
