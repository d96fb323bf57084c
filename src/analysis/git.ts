/**
 * Pre-registration order, from git. For each part of a probe's registration it finds the commit
 * that first added it and every later commit that changed it, and compares their committer dates
 * with the start of the first spawn that part governs (queries/registration_parts.sql says which).
 * It reads git, never writes, and answers "yes", "no" or "not established".
 */
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { relative, sep } from 'node:path';

export type Answer = 'yes' | 'no' | 'not established';

/** One registration file and the first spawn it governs (RFC 3339), or null when it governs none. */
export interface Part {
  /** Absolute path. */
  path: string;
  governs: string | null;
}

export interface Compared {
  /** Relative to the probe directory. */
  file: string;
  /** Short hash of the commit that first added the file (null when it is not committed). */
  commit: string | null;
  committed_at: string | null;
  /** started_at of the first spawn it governs. */
  governs: string | null;
  /** before | after | same commit as the evidence | changed after (<commit>) | not committed | uncommitted changes | governs no spawn */
  order: string;
}

export interface Preregistration {
  answer: Answer;
  reason: string;
  /** The commit that first added results.jsonl. */
  evidence_commit: string | null;
  compared: Compared[];
}

/**
 * What keeps git to reading. A probe may be shared with its .git/, whose config can name programs
 * that read commands run (core.fsmonitor, hooks, a pager, external diff, signature checks, a fetch
 * of missing objects): the command line disables each, and the system and global config, the
 * caller's GIT_* variables (GIT_DIR, GIT_INDEX_FILE, …), optional index writes and bare
 * repositories found by discovery are left out. Needs git 2.32 (GIT_CONFIG_GLOBAL).
 */
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.sshCommand=',
  'core.untrackedCache=false',
  'diff.external=',
  // A repository's own config must not change the answer: a file's history is of its path, with
  // or without other files logged beside it (log.follow applies to a lone path only).
  'diff.renames=false',
  'log.follow=false',
  'log.showSignature=false',
  'protocol.allow=never',
  'safe.bareRepository=explicit',
];

/** A repository to read: the folder git runs in, and the directories the user trusts (safe.directory). */
interface Repo {
  cwd: string;
  trusted: string[];
}

/**
 * safe.directory from the user's own system and global config: the one key kept from them, so a
 * repository another user owns (a container's volume, a CI checkout) reads as it did. Reading
 * config runs no program.
 */
async function trustedDirectories(): Promise<string[]> {
  const scopes = await Promise.all(
    ['--system', '--global'].map(
      (scope) =>
        new Promise<string[]>((done) =>
          execFile('git', ['config', scope, '--get-all', 'safe.directory'], { cwd: tmpdir(), encoding: 'utf8' }, (err, out) =>
            done(err ? [] : out.split('\n').filter(Boolean)),
          ),
        ),
    ),
  );
  return scopes.flat();
}

function safeEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    // A registration file named c[12].sql is that file, not a pattern that also matches c1.sql.
    GIT_LITERAL_PATHSPECS: '1',
    ...extra,
  };
}

/**
 * Run a read-only git command; null when it fails. `config` is more configuration given as key and
 * value apart (GIT_CONFIG_KEY_n), for keys that name a filter driver, whose name may hold `=`.
 */
function git(repo: Repo, args: string[], config: [string, string][] = [], input = ''): Promise<string | null> {
  const extra: Record<string, string> = { GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([k, v], i) => {
    extra[`GIT_CONFIG_KEY_${i}`] = k;
    extra[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  const safe = [...SAFE_CONFIG, ...repo.trusted.map((d) => `safe.directory=${d}`)];
  return new Promise((done) => {
    const child = execFile(
      'git',
      ['--no-pager', '--no-optional-locks', ...safe.flatMap((c) => ['-c', c]), ...args],
      { cwd: repo.cwd, encoding: 'utf8', env: safeEnv(extra), maxBuffer: 256 * 1024 * 1024 },
      (err, out) => done(err ? null : out),
    );
    // git reads only `input`: its stdin is closed after it. A git that exits first (EPIPE) says so by its exit status.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/**
 * Each of `files`' commits (relative to the probe), as `git log -- <file>` gives them one file at a
 * time, from one `git log --name-status` over them all: when no merge commit's tree differs from
 * any of its parents' at these paths, each file's walk and the walk over all of them follow the
 * same commits (at every merge the first parent), so a file's history is the commits that list it.
 * Otherwise, or when a path needs quoting, one log per file (gitEach), as before.
 */
async function logsOf(repo: Repo, files: string[]): Promise<(string | null)[]> {
  const [all, merges] = await Promise.all([
    git(repo, [...LOG, '--no-renames', '--relative', '--', ...files]),
    git(repo, ['rev-list', '--merges', 'HEAD']),
  ]);
  const touched =
    merges === ''
      ? ''
      : merges &&
        (await git(
          repo,
          ['diff-tree', '--stdin', '-m', '-r', '--no-renames', '--name-only', '--no-commit-id', '--', ...files],
          [],
          merges,
        ));
  if (all === null || touched !== '' || all.includes('"')) return gitEach(repo, LOG, files);
  const mine = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const record of all.split('\0').filter(Boolean)) {
    const [head, ...changes] = record.split('\n');
    for (const line of changes.filter(Boolean)) mine.get(line.slice(line.indexOf('\t') + 1))?.push(`\0${head}\n\n${line}\n`);
  }
  return files.map((f) => mine.get(f)!.join(''));
}

/** A word for sh, single-quoted. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * `git <args> -- <file>` for each of `files` in one sh (starting a process from this one, with DuckDB mapped, is what
 * costs): each output ends with \x01 and its exit status (git quotes control characters in paths). Without sh, one git each.
 */
function gitEach(repo: Repo, args: string[], files: string[]): Promise<(string | null)[]> {
  const safe = [...SAFE_CONFIG, ...repo.trusted.map((d) => `safe.directory=${d}`)];
  const command = ['git', '--no-pager', '--no-optional-locks', ...safe.flatMap((c) => ['-c', c]), ...args, '--'].map(quote).join(' ');
  const { ENV: _e, BASH_ENV: _b, ...env } = safeEnv({ GIT_CONFIG_COUNT: '0' });
  return new Promise((done) => {
    const child = execFile(
      'sh',
      ['-c', `for f do ${command} "$f"; printf '\\001%d\\n' "$?"; done`, 'sh', ...files],
      { cwd: repo.cwd, encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024 },
      (err, out) => {
        const chunks = err ? [] : out.split('\x01');
        if (chunks.length !== files.length + 1) {
          Promise.all(files.map((f) => git(repo, [...args, '--', f]))).then(done);
          return;
        }
        done(
          files.map((_, k) => {
            const text = k === 0 ? chunks[0]! : chunks[k]!.slice(chunks[k]!.indexOf('\n') + 1);
            return chunks[k + 1]!.startsWith('0\n') ? text : null;
          }),
        );
      },
    );
    child.stdin?.end();
  });
}

/**
 * Which of `files` (relative to the probe, `prefix` its path in the repository) differ from what is committed (staged,
 * changed or untracked), in two git runs. `git status` hashes a file whose stat changed through its clean filter, a
 * program .gitattributes can name: each driver the files' attributes name is emptied first, so git compares the bytes.
 */
async function dirtyFiles(repo: Repo, prefix: string, files: string[]): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  const attrs = ((await git(repo, ['check-attr', '-z', 'filter', '--', ...files])) ?? '').split('\0');
  // -z prints path, attribute, value for each file. check-attr prints a driver named "set", "unset"
  // or "unspecified" as it prints those states, and git runs a driver of that name: whatever it
  // prints is emptied.
  const drivers = [...new Set(attrs.filter((_, i) => i % 3 === 2 && attrs[i] !== ''))];
  const off = drivers.flatMap((driver) =>
    [
      ['clean', ''],
      ['smudge', ''],
      ['process', ''],
      ['required', 'false'],
    ].map(([k, v]) => [`filter.${driver}.${k}`, v] as [string, string]),
  );
  // Porcelain paths are relative to the repository's top; untracked files are listed one by one
  // and renames as a deletion and an addition, so each entry names one of the files asked about.
  const args = ['status', '--porcelain', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', ...files];
  const entries = ((await git(repo, args, off)) ?? '').split('\0').filter(Boolean);
  return new Set(
    entries
      .map((e) => e.slice(3))
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length)),
  );
}

interface Commit {
  hash: string;
  date: string;
  /** The commit added the file (its status is A, as `--diff-filter=A` selects). */
  added: boolean;
}

const LOG = ['log', '--no-show-signature', '--no-ext-diff', '--no-textconv', '--name-status', '--format=%x00%H%x09%cI'];

/** The commits of `git log --name-status` output, newest first, each with whether it added the file. */
function commitsOf(out: string | null): Commit[] {
  return (out ?? '')
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const [head, ...changes] = record.split('\n');
      const [hash, date] = head!.split('\t');
      return { hash: hash!, date: date!, added: changes.some((l) => l.startsWith('A\t')) };
    });
}

const short = (hash: string) => hash.slice(0, 7);
const after = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/** Compare each registration part's commits with the spawns it governs. */
export async function preregistration(probeDir: string, evidenceFile: string, parts: Part[]): Promise<Preregistration> {
  const compared: Compared[] = [];
  const repo: Repo = { cwd: probeDir, trusted: await trustedDirectories() };
  // The probe's path in the repository, alone on its output: a path may hold a newline, so only the
  // final one is taken off (split into lines, a newline there had shifted the prefix).
  const top = await git(repo, ['rev-parse', '--show-prefix']);
  if (top === null) {
    return { answer: 'not established', reason: 'the probe is not in a git repository', evidence_commit: null, compared };
  }
  const prefix = top.endsWith('\n') ? top.slice(0, -1) : top;
  // git names paths with '/'; on POSIX a backslash is a character of a file's name.
  const files = parts.map((part) => relative(probeDir, part.path).split(sep).join('/'));
  // Every file's history and the working tree's state at once: the runs only read.
  const [logs, dirty] = await Promise.all([logsOf(repo, [relative(probeDir, evidenceFile), ...files]), dirtyFiles(repo, prefix, files)]);
  const [evidenceHistory, ...histories] = logs.map(commitsOf);
  const evidence = evidenceHistory!.filter((c) => c.added).at(-1);
  if (!evidence) {
    return { answer: 'not established', reason: 'results.jsonl is not committed', evidence_commit: null, compared };
  }
  for (const [i, part] of parts.entries()) {
    const file = files[i]!;
    const history = histories[i] as Commit[];
    const first = history.filter((c) => c.added).at(-1) ?? history.at(-1);
    const row: Compared = {
      file,
      commit: first ? short(first.hash) : null,
      committed_at: first?.date ?? null,
      governs: part.governs,
      order: '',
    };
    const uncommitted = dirty.has(file);
    if (!first) row.order = 'not committed';
    else if (part.governs === null) row.order = 'governs no spawn';
    else {
      // A file that arrived with the evidence cannot be dated against it: the commit necessarily
      // follows the spawns. A later change dated after the first governed spawn still counts.
      const changed = history.find((c) => c.hash !== first.hash && after(c.date, part.governs!));
      if (changed) row.order = `changed after (${short(changed.hash)}, ${changed.date})`;
      else if (first.hash === evidence.hash) row.order = 'same commit as the evidence';
      else if (after(first.date, part.governs)) row.order = 'after';
      else row.order = 'before';
    }
    if (uncommitted && row.order !== 'after' && !row.order.startsWith('changed after')) row.order = 'uncommitted changes';
    compared.push(row);
  }
  const late = compared.filter((c) => c.order === 'after' || c.order.startsWith('changed after'));
  if (late.length) {
    return {
      answer: 'no',
      reason: late
        .map((c) => `${c.file} was ${c.order === 'after' ? 'committed' : 'changed'} after the first spawn it governs (${c.governs})`)
        .join('; '),
      evidence_commit: short(evidence.hash),
      compared,
    };
  }
  const unsure = compared.filter((c) => ['same commit as the evidence', 'not committed', 'uncommitted changes'].includes(c.order));
  if (unsure.length) {
    const same = unsure.filter((c) => c.order === 'same commit as the evidence');
    const reason = same.length
      ? `the registration arrived in the same commit as the evidence (${short(evidence.hash)}), so git cannot show it came first`
      : unsure.map((c) => `${c.file}: ${c.order}`).join('; ');
    return { answer: 'not established', reason, evidence_commit: short(evidence.hash), compared };
  }
  return {
    answer: 'yes',
    reason: 'every part of the registration was committed before the first spawn it governs',
    evidence_commit: short(evidence.hash),
    compared,
  };
}
