/**
 * Where a user's Claude Code sessions are: the home folder, and the folder of session files
 * `usage` and `report` read when no probe and no --transcripts is named.
 */
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../base/errors.js';
import { displayPath } from '../base/paths.js';

/** The user's home folder: HOME, else the account's (an unset or empty HOME), else '' (none). */
export const homeOf = (env: Record<string, string | undefined>): string => env.HOME || accountHome();

// os.homedir() is HOME when HOME is set, even to '': a home of '' read ./.claude/projects.
function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return '';
  }
}

/**
 * Where the sessions are when no probe and no --transcripts is named: $CLAUDE_CONFIG_DIR/projects,
 * else ~/.claude/projects (Claude Code's own places).
 */
export function claudeSessionsDir(env: Record<string, string | undefined>): string {
  // As Claude Code does: with CLAUDE_CONFIG_DIR set, its folder alone (a misspelt one would
  // otherwise report another account's sessions).
  const config = env.CLAUDE_CONFIG_DIR;
  const variable = config ? 'CLAUDE_CONFIG_DIR' : 'HOME';
  const home = config ? '' : homeOf(env);
  // Node reads a variable's bytes that are not UTF-8 as U+FFFD: the folder it names is never found.
  const wrong = env[variable]?.includes('\ufffd')
    ? `$${variable} is not UTF-8 (or holds U+FFFD)`
    : !config && !home
      ? 'HOME is empty and the account has no home folder'
      : '';
  const place = config ? join(config, 'projects') : join(home, '.claude', 'projects');
  if (wrong || !existsSync(place)) {
    throw new InputError(
      `no Claude Code sessions: ${wrong || `${displayPath(place)} does not exist${config ? ' ($CLAUDE_CONFIG_DIR is set)' : ''}`}`,
      'pass --transcripts DIR, the folder of session files (.jsonl)',
    );
  }
  return place;
}
