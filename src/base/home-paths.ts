/**
 * Home-directory paths, however they are spelled: the one matcher that serves extract's refusal,
 * the load-time warning (as an RE2 pattern that DuckDB runs: HOME_PATH_RE2), export and audit
 * (leaks.ts). Pure functions of strings: this module reads no file and no database.
 *
 * A home path, as matched (case-insensitive throughout):
 *   /home/<user>, /Users/<user>  with any run of `/` or `\` (doubled backslashes too, as inside a
 *                                JSON string) or percent-encoded separators (%2F, %5C) around the
 *                                words: `/home//alice`, `/HOME/alice`, `%2Fhome%2Falice`, `\Users\bob`
 *   <drive>:\Users\<user>        any drive letter, either separator, the colon as is or %3A:
 *                                `C:\\Users\\alice`, `d:/users/x`, `C%3A%5CUsers%5Calice`
 *   /mnt/<drive>/Users/<user>,   where systems mount or keep homes: WSL, Fedora Silverblue, FreeBSD,
 *   \\wsl$\<distro>\home\<user>, Solaris, macOS's firmlinks, and file:// URLs of every form above
 *   /var/home/<user>,           (`file://localhost/home/x`)
 *   /usr/home/<user>, /export/home/<user>, /System/Volumes/Data/Users/<user>
 *   C:\Documents and Settings\<user>
 *   /c/Users/<user>,             Git Bash, Cygwin, a macOS volume, a Windows share, the long-path
 *   /cygdrive/c/Users/<user>,    prefix before a drive, an editor's link to a file
 *   /Volumes/<disk>/Users/<user>, \\<server>\Users\<user>, \\?\C:\Users\<user>,
 *   vscode://file/home/<user>, vscode-remote://<host>/home/<user>
 *   /root, /var/root,            alone or followed by a separator
 *   /private/var/root
 *   ~<user>/                     a user name of two or more characters that starts with a letter
 *                                or `_`, then a separator: `~alice/x`
 *   ~/                           only when asked for (`bareTilde`): see below
 *   $HOME as set                 the value given, with or without a trailing slash, spelled with
 *                                the same freedom of separators and case
 * Each starts a path: it is not preceded by a letter, digit, `_`, `.`, `-`, `~`, `/`, `\` or a
 * lone `%` (a JSON escape `\n`, `\r` or `\t` counts as a line break, and a percent escape such as
 * `%22` or `%3D` as the character it stands for), unless that is a short option (`-I/home/x`).
 * So `~1`, `~800`, `a~b`, `~>`, `../home/x`, Elixir's
 * `~r/…/`, `https://host/users/x` and `/srv/home/x` are not home paths.
 *
 * `~/…` names no user and no machine: it is how a shell writes $HOME. extract refuses it, since a
 * committed record spells its paths with $HOME; loading and audit accept it (a model's reply
 * saying "~/notes.txt", as the bundled probe's do, leaks nothing).
 */

/** A run of separators: `/`, `\` (so `\\` and `\/` of JSON strings too), %2F, %5C. */
const SEP = String.raw`(?:[\\/]|%2[fF]|%5[cC])+`;
/**
 * A user name in a path: up to the next separator, space, quote or punctuation (so a route's
 * `/users/:id`, `/users/{id}` has none); not starting with `$`: `/home/$USER`, `/users/${id}` name no one.
 */
const USER = String.raw`[^\s"'<>|:*?\\/%,;()\[\]{}$][^\s"'<>|:*?\\/%,;()\[\]{}]*`;
/**
 * What may stand just before a home path though it ends in a name's character, after a space or
 * the start: a short option (`gcc -I/home/a`, `docker run -v/home/a:/d`). A relative path's `..`
 * does not (`../home/Header` is a web app's folder far more often than a climb to the root).
 */
const LEAD = String.raw`(?:^|[^A-Za-z0-9_.~\\/%-])-[A-Za-z]`;
/**
 * What may stand just before a home path: the start, a character that cannot be inside a name, a
 * JSON escape (`\n`, `\u0000`, as a record's text spells a control character), or a percent
 * escape (`%22%2Fhome…`).
 */
const BOUNDARY = String.raw`(?:^|[^A-Za-z0-9_.~\\%-]|\\(?:[nrtbf]|u[0-9A-Fa-f]{4})|%[0-9A-Fa-f]{2}|${LEAD})`;
/**
 * BOUNDARY, less a separator (`/`, `\`, %2F, %5C), before a form that starts with one: SEP takes a
 * whole run from its first, and a run of thousands tried from each of its characters took
 * quadratic time.
 */
const SEP_BOUNDARY = String.raw`(?:^|[^A-Za-z0-9_.~\\/%-]|\\(?:[nrtbf]|u[0-9A-Fa-f]{4})|%(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-9A-Ea-e]|5[0-9ABD-Fabd-f])|${LEAD})`;
const TILDE = String.raw`(?:~|%7[eE])`;

/** The spellings, each as a pattern valid in both JavaScript and RE2 (no lookaround, no backreference). */
const FORMS = {
  home: String.raw`${SEP}(?:home|users)${SEP}${USER}`,
  // Where a system mounts or keeps homes under another folder: WSL's /mnt/c/Users and
  // \\wsl$\<distro>\home, Fedora Silverblue's /var/home, FreeBSD's /usr/home, Solaris's
  // /export/home, macOS's /System/Volumes/Data/Users, and file:// URLs of any of them.
  mounted: String.raw`(?:file:${SEP}[^\s"'\\/:%]*)?${SEP}(?:mnt${SEP}[A-Za-z]|var|usr|export|system${SEP}volumes${SEP}data|wsl(?:\$|\.localhost)${SEP}[^\s"'\\/%]+)${SEP}(?:home|users)${SEP}${USER}`,
  // Git Bash's /c/Users and Cygwin's /cygdrive/c/Users; a macOS volume's /Volumes/<disk>/Users
  // (its name up to a separator, spaces and all); a UNC share's \\server\Users.
  windows: String.raw`${SEP}(?:cygdrive${SEP})?[A-Za-z]${SEP}(?:users|documents and settings)${SEP}${USER}`,
  volume: String.raw`${SEP}volumes${SEP}[^\\/%\n"'<>|:*?]+${SEP}users${SEP}${USER}`,
  unc: String.raw`\\\\(?:\\\\)?[A-Za-z0-9][^\s"'\\/:%]*${SEP}(?:users|home)${SEP}${USER}`,
  fileUrl: String.raw`file:${SEP}[^\s"'\\/:%]*${SEP}(?:home|users)${SEP}${USER}`,
  // An editor's link to a file: vscode://file/home/a/x.ts:10, vscode-remote://ssh-remote+box/home/a.
  editorUrl: String.raw`vscode(?:-insiders)?(?:-remote)?:${SEP}[^\s"'\\/%]*${SEP}(?:[A-Za-z](?::|%3[aA])${SEP})?(?:home|users)${SEP}${USER}`,
  // Windows' long-path prefix (\\?\C:\…, \\.\C:\…) may stand before the drive.
  drive: String.raw`(?:\\\\(?:\\\\)?[?.]\\(?:\\)?)?[A-Za-z](?::|%3[aA])${SEP}(?:users|documents and settings)${SEP}${USER}`,
  // The character after `root` is part of the match (RE2 has no lookahead); homePaths trims it.
  root: String.raw`${SEP}(?:(?:private${SEP})?var${SEP})?root(?:$|[^A-Za-z0-9_.-])`,
  tildeUser: String.raw`${TILDE}[A-Za-z_][A-Za-z0-9._-]*[A-Za-z0-9_]${SEP}`,
  tilde: String.raw`${TILDE}${SEP}`,
} as const;

export type HomeForm = keyof typeof FORMS | 'env';

/** The forms that start with a separator (after SEP_BOUNDARY), then the others (after BOUNDARY), each in the order tried. */
const SEP_FORMS = ['mounted', 'home', 'windows', 'volume', 'unc', 'root'] as const;
const OTHER_FORMS = ['fileUrl', 'editorUrl', 'drive', 'tildeUser', 'tilde'] as const;

/**
 * The home-path pattern for DuckDB (RE2, with the 'i' option): group 1 is a path of a form that
 * starts with a separator, group 2 one of another (one of them is empty); with /root, the character
 * after it. `~/` is not in it: see the top of this file.
 */
export const HOME_PATH_RE2 = String.raw`(?:${SEP_BOUNDARY}(${SEP_FORMS.map((f) => FORMS[f]).join('|')})|${BOUNDARY}(${OTHER_FORMS.filter(
  (f) => f !== 'tilde',
)
  .map((f) => FORMS[f])
  .join('|')}))`;

export interface HomePathOptions {
  /** The user's home directory as set ($HOME): any spelling of it counts too. */
  home?: string;
  /** Count `~/…` as a home path (extract does; loading and audit do not). */
  bareTilde?: boolean;
}

export interface HomePath {
  /** The path as spelled, up to the user name (or /root, ~/, $HOME's value). */
  text: string;
  /** Where it starts in the text searched. */
  index: number;
  form: HomeForm;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** $HOME, as a pattern that any spelling of it matches; undefined when it names no directory. */
function homePattern(home: string | undefined): string | undefined {
  const parts = (home ?? '').split(/[\\/]+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const lead = /^[A-Za-z]:$/.test(parts[0]!) ? '' : SEP;
  return `${lead}${parts.map(escapeRe).join(SEP)}(?![A-Za-z0-9_.-])`;
}

const cache = new Map<string, RegExp>();

function matcher(options: HomePathOptions): RegExp {
  const env = homePattern(options.home);
  const key = `${options.bareTilde ? 1 : 0}\u0000${env ?? ''}`;
  let re = cache.get(key);
  if (!re) {
    const named = (f: keyof typeof FORMS) => `(?<${f}>${FORMS[f]})`;
    const sep = SEP_FORMS.map(named);
    const other = OTHER_FORMS.filter((f) => f !== 'tilde' || options.bareTilde).map(named);
    // $HOME as set starts with a separator, or with a drive letter.
    if (env) (env.startsWith(SEP) ? sep : other).unshift(`(?<env>${env})`);
    re = new RegExp(`(?:${SEP_BOUNDARY}(?:${sep.join('|')})|${BOUNDARY}(?:${other.join('|')}))`, 'giu');
    cache.set(key, re);
  }
  return re;
}

/** Every home path in `text`, in order; with `first`, only the first (the rest are not looked for). */
export function homePaths(text: string, options: HomePathOptions = {}, first = false): HomePath[] {
  const re = matcher(options);
  const out: HomePath[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const form = (Object.keys(m.groups!) as HomeForm[]).find((k) => m!.groups![k] !== undefined)!;
    let path = m.groups![form]!;
    if (form === 'root') path = path.replace(/[^A-Za-z0-9_.-]$/u, '');
    const index = m.index + m[0].length - m.groups![form]!.length;
    out.push({ text: path, index, form });
    if (first) break;
    // The character after a match may be the boundary of the next one.
    re.lastIndex = index + Math.max(path.length, 1);
  }
  return out;
}

/** The first home path in `text`, or undefined. */
export function firstHomePath(text: string, options: HomePathOptions = {}): HomePath | undefined {
  return homePaths(text, options, true)[0];
}

/** Keep `keep` characters of `s` and hide the rest (at most eight stars, so the length shows little). */
export function hide(s: string, keep: number): string {
  const rest = s.length - keep;
  return rest <= 0 ? s : s.slice(0, keep) + '*'.repeat(Math.min(rest, 8));
}

/** A home path with its user name masked (its first character kept): `/home/a****`. */
export function maskHomePath(p: Pick<HomePath, 'text' | 'form'>): string {
  switch (p.form) {
    case 'home':
    case 'mounted':
    case 'fileUrl':
    case 'windows':
    case 'volume':
    case 'unc':
    case 'editorUrl':
    case 'drive':
    case 'env': {
      const m = /^(.*(?:[\\/]|%2f|%5c))([^\\/%]+)$/iu.exec(p.text);
      return m ? m[1]! + hide(m[2]!, 1) : hide(p.text, 1);
    }
    case 'tildeUser': {
      const m = /^(~|%7e)(.+?)((?:[\\/]|%2f|%5c)+)$/iu.exec(p.text);
      return m ? m[1]! + hide(m[2]!, 1) + m[3]! : p.text;
    }
    default:
      return p.text;
  }
}

/** `text` with every home path in it masked (maskHomePath): for a path an error message quotes. */
export function maskHomePaths(text: string, options: HomePathOptions = {}): string {
  let out = '';
  let at = 0;
  for (const p of homePaths(text, options)) {
    out += text.slice(at, p.index) + maskHomePath(p);
    at = p.index + p.text.length;
  }
  return out + text.slice(at);
}
