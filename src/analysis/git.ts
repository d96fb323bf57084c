/**
 * Pre-registration order, from git. For each part of a probe's registration it finds the commit
 * that first added it and every later commit that changed it, and compares their committer dates
 * with the start of the first spawn that part governs (queries/registration_parts.sql says which),
 * and what it held before the commits that first recorded each spawn it governs (git-recorded.ts).
 * It reads git, never writes, and answers "yes", "no" or "not established".
 */
import { relative, sep } from 'node:path';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';
import { realOrNot } from '../base/replace-file.js';
import {
  entriesOf,
  type Governed,
  grepCalls,
  namedCommits,
  placeAll,
  recordersOf,
  removedFiles,
  resultsLog,
  touchesOf,
  treesAt,
} from './git-recorded.js';
import { enclosingRepository, historiesOf, LOG, standing, unloaded } from './git-history.js';
import { gitAll, program, type Repo, trustedDirectories } from './git-run.js';

export type Answer = 'yes' | 'no' | 'not established';

/** One registration file and the first spawn it governs (RFC 3339), or null when it governs none. */
export interface Part {
  /** Absolute path. */
  path: string;
  governs: string | null;
  /** The session_id of that spawn. */
  session?: string | null;
  /** It declares an arm void: it changes the verdict even when it governs no spawn. */
  voids?: boolean;
  /** Every spawn it governs (its first alone when not given). */
  spawns?: Governed[];
}

export interface Compared {
  /** Relative to the probe directory. */
  file: string;
  /** Short hash of the commit that first added the file (null when it is not committed). */
  commit: string | null;
  committed_at: string | null;
  /** started_at of the first spawn it governs. */
  governs: string | null;
  /** before | after | same commit as the evidence | changed after (<commit>) | removed after | a spawn it governs is in no commit of results.jsonl | not committed | uncommitted changes | a symbolic link | voids an arm, and no spawn it governs came after it | governs no spawn */
  order: string;
}

export interface Preregistration {
  answer: Answer;
  reason: string;
  /** The commit that first added results.jsonl. */
  evidence_commit: string | null;
  compared: Compared[];
}

const short = (hash: string) => hash.slice(0, 7);
/** Whether instant `a` (a git date, or a spawn's started_at, held to RFC 3339 as it loads) comes after `b`. */
function after(a: string, b: string): boolean {
  // With a space for its T, V8 reads a date with its legacy parser, which takes 0032 for 2032: the
  // T keeps it to ISO 8601, as DuckDB reads it (omg_rfc3339).
  const [x, y] = [a, b].map((d) => Date.parse(d.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T')));
  // A date that reads as no instant would make every part "before": nothing must get that far.
  if (Number.isNaN(x) || Number.isNaN(y)) {
    throw new InputError(
      `${Number.isNaN(x) ? a : b}: a commit's date or a started_at that JavaScript reads as no instant`,
      'a started_at is written 2026-08-12T14:02:11.482+09:00; a commit dated past ±23:59 comes from rewritten history',
    );
  }
  return x! > y!;
}

/**
 * The order of an addendum that voids an arm and rules no spawn (it registers no arm that ran, and
 * declares no pilot): nothing after it shows it came before the data it changes.
 */
const VOIDS_UNDATED = 'voids an arm, and no spawn it governs came after it';

/** A part one of whose spawns' rows no commit of results.jsonl holds (it is not committed, or not as it loads). */
const UNRECORDED = 'a spawn it governs is in no commit of results.jsonl';

/**
 * Why `c` is late. `at`: the spawn it was found late for, named when it is not the first (the first
 * it governs, or for a removed file the probe's): its row was recorded first whatever its started_at.
 */
function lateReason(c: Compared, at: Governed | undefined, first: string | null): string {
  const which = at && at.started_at !== first ? `spawn ${at.session} (${at.started_at}` : null;
  if (c.order === 'removed after')
    return `${c.file} was removed after ${which ?? `the first spawn (${c.governs}`}${c.commit ? `, in ${c.commit}` : ''})`;
  const verb = c.order === 'after' ? 'committed' : 'changed';
  return `${c.file} was ${verb} after ${which ? `${which}), a spawn it governs` : `the first spawn it governs (${c.governs})`}`;
}

/** The spawns `p` governs; `parts` before spawns listed them were given the first alone. */
const spawnsOf = (p: Part): Governed[] =>
  p.spawns ?? (p.governs !== null && p.session ? [{ session: p.session, started_at: p.governs }] : []);

const unreadable = (dir: string) =>
  new InputError(
    `${displayPath(dir)}: git cannot read the history of its repository, so the registration cannot be dated`,
    'run `git fsck` there to see why',
  );

/** Compare each registration part's commits with the spawns it governs. */
export async function preregistration(probeDir: string, evidenceFile: string, parts: Part[]): Promise<Preregistration> {
  const compared: Compared[] = [];
  const repo: Repo = { cwd: probeDir, trusted: await trustedDirectories() };
  // The probe's path in the repository, alone on its output: a path may hold a newline, so only the
  // final one is taken off (split into lines, a newline there had shifted the prefix).
  // git names paths with '/'; on POSIX a backslash is a character of a file's name.
  const files = parts.map((part) => relative(probeDir, part.path).split(sep).join('/'));
  const logged = [relative(probeDir, evidenceFile), ...files];
  // Every file's history, results.jsonl's full history and how HEAD and the working tree stand; each
  // later shell's commands take an earlier one's output. The three walks of the whole history take
  // time in proportion to it (seconds in a repository of 100,000 commits): two shells run at once.
  const [[shallow, top, head, all, tree, hashes], [merges, results]] = await Promise.all([
    gitAll(repo, [
      { args: ['rev-parse', '--is-shallow-repository'] },
      { args: ['rev-parse', '--show-toplevel'] },
      { args: ['rev-parse', '--verify', '--quiet', 'HEAD'] },
      { args: [...LOG, '--no-renames', '--relative', '--', ...logged] },
      { args: ['ls-tree', '-r', '-z', 'HEAD', '--', 'registration', ...files] },
      ...(files.length ? [{ args: ['hash-object', '--no-filters', '--', ...files] }] : []),
    ]),
    gitAll(repo, [{ args: ['rev-list', '--merges', 'HEAD'] }, resultsLog(logged[0]!)]),
  ]);
  if (shallow === null) {
    // Not a repository, or one git cannot read: only the first may pass as "not established".
    const root = enclosingRepository(probeDir);
    if (root === undefined) {
      return { answer: 'not established', reason: 'the probe is not in a git repository', evidence_commit: null, compared };
    }
    if (program('git') === null) {
      throw new InputError(
        `${displayPath(probeDir)}: git is in no absolute folder of PATH, so the registration cannot be dated`,
        "install git, or name its folder on PATH by an absolute path: an empty or relative entry names the probe's folder, and is not searched",
      );
    }
    throw new InputError(
      `${displayPath(probeDir)}: git cannot read the repository at ${displayPath(root)}, so the registration cannot be dated`,
      'run `git status` there to see why (is git installed? a repository another user owns needs safe.directory)',
    );
  }
  // The .git/ names the work tree (core.worktree): one elsewhere would read another folder's files of
  // HEAD's tree as the probe's, a decoy's history for its own.
  const root = enclosingRepository(probeDir)!;
  const worktree = top?.replace(/\n$/, '');
  if (worktree === undefined || realOrNot(worktree) !== realOrNot(root)) {
    // Paths from the probe: the answer is the same from any working folder.
    const rel = (path: string) => relative(probeDir, path) || '.';
    const where = worktree === undefined ? 'none (core.bare)' : rel(worktree);
    const reason = `git's work tree is ${where}, not ${rel(root)}, which holds the .git it reads (paths from the probe): which files of its history are the probe's cannot be told`;
    return { answer: 'not established', reason, evidence_commit: null, compared };
  }
  if (head === null) return { answer: 'not established', reason: 'results.jsonl is not committed', evidence_commit: null, compared };
  if (all === null || merges === null || results === null || tree === null) throw unreadable(probeDir);
  const merged = merges
    ? [{ args: ['diff-tree', '--stdin', '-m', '-r', '--no-renames', '--name-only', '--no-commit-id', '--', ...logged], input: merges }]
    : [];
  // The spawns whose recording commits are looked for: every one a part governs (one grep takes them
  // all), earliest first; a started_at is the data's, so any of them may have been recorded first.
  const spawns = [...new Map(parts.flatMap(spawnsOf).map((g) => [g.session, g])).values()].sort((a, b) =>
    after(a.started_at, b.started_at) ? 1 : after(b.started_at, a.started_at) ? -1 : a.session < b.session ? -1 : 1,
  );
  const sessions = spawns.map((g) => g.session);
  const touches = touchesOf(results);
  const greps = grepCalls(logged[0]!, touches, sessions, files);
  const outs = merged.length + greps.length ? await gitAll(repo, [...merged, ...greps]) : [];
  const touched = merges === '' ? '' : outs[0]!;
  const recorded = recordersOf(outs.slice(merged.length), touches, sessions);
  if (recorded === 'unread') {
    throw new InputError(
      `${displayPath(probeDir)}: git grep could not read the history of results.jsonl, so the commits that first recorded the spawns cannot be read`,
      'run `git fsck` there to see why',
    );
  }
  if (recorded === null) {
    throw new InputError(
      `${displayPath(probeDir)}: git grep printed a line that is not a match of a session_id in results.jsonl, so the commits that first recorded the spawns cannot be read`,
      'it reads `git grep -a -o -z` output: is the git on PATH git 2.32 or later?',
    );
  }
  const [evidenceHistory, ...histories] = await historiesOf(repo, logged, all, touched);
  const headTree = entriesOf(tree);
  const stands = standing(files, headTree, hashes ?? null, probeDir);
  const evidence = evidenceHistory!.filter((c) => c.added).at(-1);
  if (!evidence) {
    return { answer: 'not established', reason: 'results.jsonl is not committed', evidence_commit: null, compared };
  }
  // What the registration held in each commit that first recorded a spawn, and in its parents.
  const recs = [...recorded.values()].flat();
  const early = { touches, sessions, outs: outs.slice(merged.length) };
  const trees = await treesAt(repo, [...new Set(recs.flatMap((r) => [r.hash, ...r.parents]))], files, early);
  if (trees === null) throw unreadable(probeDir);
  // A file the registration held before a spawn was recorded, gone at HEAD: removed after it.
  const gone = removedFiles(spawns, recorded, trees, headTree);
  const removed = [...gone.keys()];
  const placings = parts.map((p, i) =>
    headTree.has(files[i]!) ? placeAll(files[i]!, headTree.get(files[i]!)!.hash, spawnsOf(p), recorded, trees) : null,
  );
  const placed = placings.map((x) => x?.placed);
  const changes = placed.flatMap((pl, i) => (pl?.order === 'changed' ? [{ file: files[i]!, since: pl.since }] : []));
  const named = await namedCommits(repo, changes, removed);
  const changedBy = new Map(changes.map((c, k) => [c.file, named[k]]));
  let sameAs: string | null = null;
  // The spawn each late part or removed file was found late for (lateReason).
  const lateAt = new Map<string, Governed>(gone);
  for (const [i, part] of parts.entries()) {
    const file = files[i]!;
    const history = histories[i]!;
    const first = history.filter((c) => c.added).at(-1) ?? history.at(-1);
    const row: Compared = {
      file,
      commit: first ? short(first.hash) : null,
      committed_at: first?.date ?? null,
      governs: part.governs,
      order: '',
    };
    const pl = placed[i];
    if (!first) row.order = 'not committed';
    else if (part.governs === null) row.order = part.voids ? VOIDS_UNDATED : 'governs no spawn';
    else {
      // A change dated after the spawn is late whatever the history; one dated before is late when
      // HEAD's bytes are not those the file had before the commits that first recorded the spawn.
      const changed = history.find((c) => c.hash !== first.hash && after(c.date, part.governs!));
      const by = changedBy.get(file);
      if (pl?.order === 'changed' || pl?.order === 'after') lateAt.set(file, placings[i]!.at!);
      if (changed) row.order = `changed after (${short(changed.hash)}, ${changed.date})`;
      else if (pl?.order === 'changed') row.order = `changed after (${by ? `${short(by.hash)}, ${by.date}` : `since ${short(pl.since)}`})`;
      else if (pl?.order === 'after') row.order = 'after';
      else if (pl?.order === 'same') {
        // It arrived with the row: that commit necessarily follows the spawn, so it cannot be dated.
        row.order = 'same commit as the evidence';
        sameAs ??= pl.commit;
      } else if (after(first.date, part.governs)) row.order = 'after';
      else if (spawnsOf(part).some((g) => !recorded.get(g.session)?.length)) row.order = UNRECORDED;
      else row.order = 'before';
    }
    const late = row.order === 'after' || row.order.startsWith('changed after');
    if (stands[i] === 'link' && !late) row.order = 'a symbolic link';
    else if (stands[i] === 'changed' && !late) row.order = 'uncommitted changes';
    compared.push(row);
  }
  for (const [k, file] of removed.entries()) {
    const by = named[changes.length + k];
    compared.push({
      file,
      commit: by ? short(by.hash) : null,
      committed_at: by?.date ?? null,
      governs: gone.get(file)!.started_at,
      order: 'removed after',
    });
  }
  // A file HEAD's registration/ holds that is no loaded part, deleted or changed since: not read.
  for (const file of unloaded(files, headTree, probeDir)) {
    compared.push({ file, commit: null, committed_at: null, governs: null, order: 'uncommitted changes' });
  }
  // A shallow clone's oldest commits show every file as added there: a change after the spawns is
  // one, but a file's first commit is not known.
  const shallowClone = shallow === 'true\n';
  const late = compared.filter((c) => (c.order === 'after' && !shallowClone) || /^(changed|removed) after/.test(c.order));
  if (late.length) {
    return {
      answer: 'no',
      reason: late
        .map((c) => lateReason(c, lateAt.get(c.file), c.order === 'removed after' ? (spawns[0]?.started_at ?? null) : c.governs))
        .join('; '),
      evidence_commit: short(evidence.hash),
      compared,
    };
  }
  if (shallowClone) {
    return {
      answer: 'not established',
      reason:
        'the repository is a shallow clone: its history is cut, so git cannot show when the registration was first committed (git fetch --unshallow)',
      evidence_commit: short(evidence.hash),
      compared,
    };
  }
  const unsure = compared.filter((c) =>
    ['same commit as the evidence', 'not committed', 'uncommitted changes', 'a symbolic link', VOIDS_UNDATED, UNRECORDED].includes(c.order),
  );
  if (unsure.length) {
    const same = unsure.filter((c) => c.order === 'same commit as the evidence');
    const reason = same.length
      ? `the registration arrived in the same commit as the evidence (${short(sameAs ?? evidence.hash)}), so git cannot show it came first`
      : unsure
          .map(
            (c) =>
              `${c.file}: ${c.order === 'a symbolic link' ? 'a symbolic link, and git dates the link, not the file it points at' : c.order}`,
          )
          .join('; ');
    return { answer: 'not established', reason, evidence_commit: short(evidence.hash), compared };
  }
  return {
    answer: 'yes',
    reason: 'every part of the registration was committed before the first spawn it governs',
    evidence_commit: short(evidence.hash),
    compared,
  };
}
