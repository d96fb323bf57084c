/** The configuration and environment every git call of gitAll (git-run.ts) runs with. */

/**
 * What keeps git to reading. A probe may be shared with its .git/, whose config can name programs
 * that read commands run (core.fsmonitor, hooks, a pager, external diff, signature checks, a fetch
 * of missing objects): the command line disables each, and the system and global config, the
 * caller's GIT_* variables (GIT_DIR, GIT_INDEX_FILE, …), optional index writes and bare
 * repositories found by discovery are left out. Needs git 2.32 (GIT_CONFIG_GLOBAL).
 */
const SAFE_CONFIG = [
  // A commit-graph file can name other parents than the commits do: the history is read from the commits.
  'core.bare=false',
  'core.commitGraph=false',
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.sshCommand=',
  'core.untrackedCache=false',
  'diff.external=',
  // A repository's own config must not change the answer: a file's history is of its path, with
  // or without other files logged beside it (log.follow applies to a lone path only).
  'diff.renames=false',
  // git grep's output is read as `<rev>:<path>\0<match>`: no line numbers, columns or colours of the repository's.
  'color.grep=never',
  'color.ui=never',
  'grep.column=false',
  'grep.fullName=false',
  'grep.lineNumber=false',
  // log's output is read as UTF-8, a root commit's files listed too.
  'i18n.logOutputEncoding=UTF-8',
  'log.follow=false',
  'log.showRoot=true',
  'log.showSignature=false',
  // A repository's own protocol.<name>.allow beats protocol.allow: a lazy fetch (git before 2.39.4
  // ignores GIT_NO_LAZY_FETCH) of an ext:: remote would run its command.
  'protocol.allow=never',
  ...['ext', 'file', 'git', 'http', 'https', 'ssh'].map((p) => `protocol.${p}.allow=never`),
  'safe.bareRepository=explicit',
];

/** A repository to read: the folder git runs in, and the directories the user trusts (safe.directory). */
export interface Repo {
  cwd: string;
  trusted: string[];
}

export function safeEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    // refs/replace/ in the probe's .git/ would swap commits (their parents, their trees) for others.
    GIT_NO_REPLACE_OBJECTS: '1',
    // So would .git/info/grafts, which GIT_NO_REPLACE_OBJECTS leaves in force: an empty graft file is read instead.
    GIT_GRAFT_FILE: '/dev/null',
    // A registration file named c[12].sql is that file, not a pattern that also matches c1.sql.
    GIT_LITERAL_PATHSPECS: '1',
    ...extra,
  };
}

/** What every git command here is run with before its own arguments: SAFE_CONFIG and the trusted directories. */
export const safeArgs = (repo: Repo) => [
  '--no-pager',
  '--no-optional-locks',
  ...[...SAFE_CONFIG, ...repo.trusted.map((d) => `safe.directory=${d}`)].flatMap((c) => ['-c', c]),
];
