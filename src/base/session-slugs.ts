/**
 * The folder Claude Code names after a session's working folder (`~/.claude/projects/<slug>`), where that
 * folder was in a home: the name spells the home's user, as a home path does.
 */

/**
 * What stands in a session folder's name before `-home-` or `-Users-` when the working folder was
 * in a home: Claude Code writes each `/`, `\`, `:` and `.` as `-`, so Windows' C:\Users gives
 * `C--Users-`, WSL's /mnt/c/Users `-mnt-c-Users-`, a slug of a slug `…-claude-501--Users-`.
 */
const SLUG_BEFORE_LEAD = String.raw`[A-Za-z]-|-(?:mnt|cygdrive)-[A-Za-z]|-(?:usr|export)|(?:-private)?-tmp-claude-[0-9]+-`;

/**
 * A folder Claude Code names after a session's working folder in a home (`-home-alice-repo`,
 * `C--Users-alice-repo`), in text where it keeps one: under ~/.claude/projects/ or /tmp/claude-<uid>/.
 */
export const SLUG_IN_TEXT = new RegExp(
  String.raw`(?:projects|claude-[0-9]+)(?:[\\/]|%2[fF])+(?:${SLUG_BEFORE_LEAD})?(?<lead>-(?:home|Users)-)(?<user>[^-/\\\s"'%]+)`,
  'dgiu',
);

/**
 * A folder Claude Code names after a session's working folder (`-Users-alice-repo` under
 * ~/.claude/projects: each `/`, `\`, `:` and `.` a `-`), when it was in a home, anywhere in a path:
 * group 1 what stands before its lead (C- of C--Users-), group 2 its lead, group 3 the user's name.
 */
export const SESSION_SLUGS = new RegExp(String.raw`(?<=^|/)(${SLUG_BEFORE_LEAD})?(-(?:home|Users)-)([^-/]+)`, 'giu');
