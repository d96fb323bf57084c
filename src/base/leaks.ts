/**
 * What must never leave the measuring machine, and how to find it in text: home-directory paths
 * (home-paths.ts) and secrets (API keys and tokens, private keys, credentials), each found at its
 * line with the match masked. Pure functions of strings: this module reads no file and no database.
 */
import { type HomePathOptions, hide, homePaths, maskHomePath } from './home-paths.js';
import { SLUG_IN_TEXT } from './session-slugs.js';
import { decodeJsonEscapes } from './json-escapes.js';

export type SecretKind =
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-access-key-id'
  | 'aws-secret-key'
  | 'github-token'
  | 'gitlab-token'
  | 'npm-token'
  | 'huggingface-token'
  | 'stripe-key'
  | 'slack-token'
  | 'slack-webhook'
  | 'google-api-key'
  | 'google-oauth-token'
  | 'google-client-secret'
  | 'bearer-token'
  | 'basic-auth'
  | 'private-key'
  | 'netrc-password'
  | 'url-password';

interface SecretRule {
  kind: SecretKind;
  /** Global, with indices; the part to mask is the group `secret` (none: the match shows whole). */
  re: RegExp;
  /** A further test of a match, to keep false positives down. */
  accept?: (secret: string) => boolean;
}

/** Words and digits both: real keys have them, prose and identifiers mostly do not. */
const mixed = (s: string) => /[0-9]/.test(s) && /[A-Za-z]/.test(s);
/** Upper and lower case letters and digits, as a random key has them. */
const mixedCase = (s: string) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
/**
 * A value that only stands for a secret, as a whole: $VAR or $var (one case: `$ecretPass9` is a
 * password), ${name} and a template's ${expression}, {name}, {{ name }}, <token>, %s, ***, xx. A name
 * with a digit inside it (`{Hunter2xyz}`) is a password; `%40…` (an escaped @) is one too.
 */
const placeholder = (s: string) =>
  /^(?:\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*)|\$\{[^{}]+\}|\{\{? *[A-Za-z_]+[0-9]* *\}?\}|<[^<>]*>|%(?:\(\w+\))?s|\*+|x{2,}|X{2,})$/u.test(
    s,
  );
/** Base64 of `user:password` in printable ASCII, as an HTTP Basic header carries it. */
const credentials = (s: string) => /^[\x20-\x7e]+:[\x20-\x7e]+$/u.test(Buffer.from(s, 'base64').toString('latin1'));
/** Quotes that close one string and open the next ("a://u:p","b":"c@d"): no password. */
const acrossStrings = (s: string) => /["'][\s,:;})\]]|[,:;{([=]["']/u.test(s);

/**
 * A provider's key: `prefix` then `rest`, the prefix starting a word, or after `_` (`KEY_sk-ant-…`)
 * or a percent escape (`api_key%3Dsk-…`, `Bearer%20sk-ant-…`), as a home path may (home-paths.ts).
 * The test of what stands before follows the prefix: ahead of it, it ran at every character.
 */
const key = (prefix: string, rest: RegExp, before = '[^A-Za-z0-9]') =>
  new RegExp(`${prefix}(?<=(?:^|${before}|%[0-9A-Fa-f]{2})${prefix})${rest.source}`, rest.flags);

/** In priority order: where two matches overlap, the earlier rule's is kept. */
const SECRET_RULES: SecretRule[] = [
  { kind: 'private-key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/dgu },
  { kind: 'anthropic-key', re: key('sk-ant-', /(?<secret>[A-Za-z0-9_-]{20,})/dgu), accept: mixed },
  { kind: 'openai-key', re: key('sk-', /(?!ant-)(?:proj-|svcacct-|admin-)?(?<secret>[A-Za-z0-9_-]{20,})/dgu), accept: mixed },
  // AWS documents AKIAIOSFODNN7EXAMPLE as its example key id.
  { kind: 'aws-access-key-id', re: key('(?:AKIA|ASIA)', /(?<secret>[0-9A-Z]{16})\b/dgu), accept: (s) => !s.endsWith('EXAMPLE') },
  {
    kind: 'aws-secret-key',
    // aws_secret_access_key, aws-secret-key, SecretAccessKey, `aws configure`'s "AWS Secret Access
    // Key [None]:"; `=`, `:` or a space before the key (`aws configure set aws_secret_access_key KEY`).
    // One \s* before the optional [value shown] and the optional sign, one after each: linear.
    re: /(?:aws[_ -]?secret(?:[_ -]?access)?[_ -]?key|secret[_ -]?access[_ -]?key)\\?["']?\s*(?:\[[^\]\n]{0,64}\]\s*)?(?:[:=]\s*)?\\?["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgiu,
    accept: (s) => mixedCase(s) && !s.endsWith('EXAMPLEKEY'),
  },
  { kind: 'github-token', re: key('(?:ghp|gho|ghu|ghs|ghr)_', /(?<secret>[A-Za-z0-9]{36,})\b/dgu) },
  { kind: 'github-token', re: key('github_pat_', /(?<secret>[A-Za-z0-9_]{22,})/dgu) },
  { kind: 'gitlab-token', re: key('glpat-', /(?<secret>[0-9A-Za-z_-]{20,})/dgu) },
  { kind: 'npm-token', re: key('npm_', /(?<secret>[A-Za-z0-9]{36})(?![A-Za-z0-9])/dgu), accept: mixed },
  // Not after `_`: a snake_case name reads as one (load_hf_AutoModelForSequenceClassification).
  {
    kind: 'huggingface-token',
    re: key('hf_', /(?<secret>[A-Za-z0-9]{34})(?![A-Za-z0-9])/dgu, '[^A-Za-z0-9_]'),
    accept: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s),
  },
  { kind: 'stripe-key', re: key('(?:sk|rk)_live_', /(?<secret>[0-9A-Za-z]{16,})/dgu) },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9/_-]{8,})/dgu },
  // xoxe-: a refresh token of Slack's token rotation.
  { kind: 'slack-token', re: key('xox[abposre]-', /(?<secret>[A-Za-z0-9-]{10,})/dgu), accept: mixed },
  { kind: 'slack-token', re: key('xapp-', /(?<secret>[0-9]-[A-Za-z0-9-]{10,})/dgu), accept: mixed },
  { kind: 'google-api-key', re: key('AIza', /(?<secret>[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/dgu) },
  { kind: 'google-oauth-token', re: key('ya29\\.', /(?<secret>[0-9A-Za-z_-]{20,})/dgu), accept: mixed },
  { kind: 'google-client-secret', re: key('GOCSPX-', /(?<secret>[0-9A-Za-z_-]{20,})/dgu) },
  // The scheme's name is case-insensitive (RFC 7235): BEARER, bearer.
  { kind: 'bearer-token', re: /\bbearer\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dgiu, accept: mixed },
  // HTTP Basic (RFC 7617): base64 of user:password; prose's "basic information" decodes to no pair.
  { kind: 'basic-auth', re: /\bbasic\s+(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dgiu, accept: credentials },
  {
    kind: 'netrc-password',
    // `machine NAME` or `default` (with a login: prose says "default password"), then login, account
    // or port (at most four), then the password, bare or quoted. Over lines too; escaped ones in JSON
    // as the decoded pass reads them (an escape in the pattern had made a run of `\n` quadratic).
    re: /(?:\bmachine\s+\S+|\bdefault(?=\s+login\s))(?:\s+(?:login|account|port)\s+\S+){0,4}\s+password\s+(?<secret>"[^"\n]+"|[^\s\\"']+)/dgu,
    accept: (s) => !placeholder(s.replace(/^"(.*)"$/su, '$1')),
  },
  {
    kind: 'url-password',
    // As curl reads it: the password runs to the last `@` before the host, in the URL's authority
    // (up to `/`, `?`, `#`), so one holding an `@` (P@ss@host) is masked whole; and, as acrossStrings
    // reads it, within its string ("u:P@ss@h","e":"o@x.com": to the last `@` before the `",`).
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/(?<user>[^\s/:@"'<>\\]*):(?<secret>(?:(?!["'][\s,:;})\]]|[,:;{([=]["'])[^\s/?#<>])+)@(?:\[[0-9A-Za-z:.%]+\]|[A-Za-z0-9.-]+)/dgu,
    accept: (s) => !placeholder(s),
  },
  {
    kind: 'url-password',
    // Where the reading above finds none (a `?` or `#` in the password): up to the first `@`.
    // The user may be empty (redis://:secret@host).
    // A scheme starts where a run of its characters does: tried from each word boundary inside a
    // run (a.a.a.…), the search had been quadratic in the run's length.
    // A password may hold a quote (pa"ss); the host may be IPv6 ([::1]).
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/(?<user>[^\s/:@"'<>\\]*):(?<secret>[^\s/@<>]+)@(?:\[[0-9A-Za-z:.%]+\]|[A-Za-z0-9.-]+)/dgu,
    accept: (s) => !placeholder(s) && !acrossStrings(s),
  },
];

/** A 40-character AWS secret access key standing alone: checked only near an access key id. */
const AWS_SECRET_NEAR = /(?<![A-Za-z0-9/+=])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgu;
/** How many lines either side of an access key id a bare secret key is looked for. */
const AWS_NEAR_LINES = 2;

export type LeakKind = 'home-path' | SecretKind;

export interface Leak {
  /** 1-based line of the text. */
  line: number;
  kind: LeakKind;
  /** The matched text, masked: a short prefix kept, the rest as stars. */
  masked: string;
}

/** How much of a secret part to show: a short prefix, never more than a quarter of it. */
const prefixOf = (s: string) => Math.min(4, Math.floor(s.length / 4));

/** Start offset of each line of `text`. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line of offset `index`, given lineStarts. */
export function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** A match found, in the offsets of the text given to findLeaks, masked. */
export interface Found {
  index: number;
  end: number;
  kind: LeakKind;
  masked: string;
}

/**
 * The matches kept so far, in order and never overlapping, so that whether a new one overlaps any
 * is a binary search (a scan of them all had been quadratic in the number of findings).
 */
class Kept {
  items: Found[] = [];
  overlaps(index: number, end: number): boolean {
    // The last kept match that starts before `end`: the only one that can reach past `index`.
    let lo = -1;
    let hi = this.items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.items[mid]!.index < end) lo = mid;
      else hi = mid - 1;
    }
    return lo >= 0 && this.items[lo]!.end > index;
  }
  /** Keep `more` (in order, none overlapping another or a kept one). */
  add(more: Found[]): void {
    if (!more.length) return;
    const merged: Found[] = [];
    let i = 0;
    for (const f of more) {
      while (i < this.items.length && this.items[i]!.index < f.index) merged.push(this.items[i++]!);
      merged.push(f);
    }
    while (i < this.items.length) merged.push(this.items[i++]!);
    this.items = merged;
  }
}

/** A text to search, and where its offsets stand in the text given (the identity for that text itself). */
interface Pass {
  text: string;
  at: (index: number) => number;
}

/**
 * Every home path and secret in a file's text, by line, then by position. A match spanning lines
 * (a .netrc entry) is reported at its first line; the same masked text of the same kind is
 * reported once per line.
 */
export function findLeaks(text: string, options: Pick<HomePathOptions, 'home'> = {}): Leak[] {
  const starts = lineStarts(text);
  const seen = new Set<string>();
  const leaks: Leak[] = [];
  for (const f of leakSpans(text, options, starts)) {
    const leak = { line: lineAt(starts, f.index), kind: f.kind, masked: f.masked };
    const key = `${leak.line}\u0000${leak.kind}\u0000${leak.masked}`;
    if (seen.has(key)) continue;
    seen.add(key);
    leaks.push(leak);
  }
  return leaks;
}

/**
 * Every home path and secret in `text` with where it is (from `index` to `end`), by position, none
 * dropped as a repeat. The text is searched as it is and again with its JSON escapes decoded
 * (decodeJsonEscapes); a secret shows masked as the text spells it.
 */
export function leakSpans(text: string, options: Pick<HomePathOptions, 'home'> = {}, starts = lineStarts(text)): Found[] {
  const decoded = decodeJsonEscapes(text);
  const passes: Pass[] = [{ text, at: (i) => i }, ...(decoded ? [decoded] : [])];
  const kept = new Kept();
  /** Keep the matches of one phase that overlap nothing kept (nor each other). */
  const keepAll = (found: Iterable<Found>) => {
    const more: Found[] = [];
    for (const f of found) if (!kept.overlaps(f.index, f.end) && !(more.length && more[more.length - 1]!.end > f.index)) more.push(f);
    kept.add(more);
  };
  /** A rule's matches in one pass, masked as `text` spells them. */
  function* masked(pass: Pass, kind: LeakKind, matches: Iterable<{ index: number; end: number; hidden: [number, number][] }>) {
    for (const m of matches) {
      const [index, end] = [pass.at(m.index), pass.at(m.end)];
      let shown = text.slice(index, end);
      // From the last part back, so that the offsets of those before hold.
      for (const [from, to] of [...m.hidden].reverse()) {
        const [s, e] = [pass.at(from) - index, pass.at(to) - index];
        shown = shown.slice(0, s) + hide(shown.slice(s, e), prefixOf(shown.slice(s, e))) + shown.slice(e);
      }
      // A match across lines (a .netrc entry) shows on one.
      yield { index, end, kind, masked: shown.replace(/\s+/gu, ' ') };
    }
  }
  const keep = (pass: Pass, kind: LeakKind, matches: Iterable<{ index: number; end: number; hidden: [number, number][] }>) =>
    keepAll(masked(pass, kind, matches));
  for (const rule of SECRET_RULES) {
    for (const pass of passes) keep(pass, rule.kind, ruleMatches(rule, pass.text));
  }
  // A bare secret access key counts only near an access key id.
  const near = new Set<number>();
  for (const f of kept.items) {
    if (f.kind !== 'aws-access-key-id') continue;
    const line = lineAt(starts, f.index);
    for (let l = line - AWS_NEAR_LINES; l <= line + AWS_NEAR_LINES; l++) near.add(l);
  }
  if (near.size) {
    for (const pass of passes) {
      const candidates = [...ruleMatches({ kind: 'aws-secret-key', re: AWS_SECRET_NEAR, accept: mixedCase }, pass.text)];
      keep(
        pass,
        'aws-secret-key',
        candidates.filter((m) => near.has(lineAt(starts, pass.at(m.index)))),
      );
    }
  }
  for (const pass of passes) {
    // maskHomePath masks the path as this pass spells it; the offsets go back to the text given.
    keepAll(
      homePaths(pass.text, { home: options.home }).map((p) => ({
        index: pass.at(p.index),
        end: pass.at(p.index + p.text.length),
        kind: 'home-path' as const,
        masked: maskHomePath(p),
      })),
    );
    for (const m of pass.text.matchAll(SLUG_IN_TEXT)) {
      const [from, to] = [m.indices!.groups!.lead![0], m.indices!.groups!.user![1]];
      const user = m.groups!.user!;
      keepAll([{ index: pass.at(from), end: pass.at(to), kind: 'home-path', masked: m.groups!.lead! + hide(user, 1) }]);
    }
  }
  return kept.items;
}

/** A URL's user part this long is a token too (`https://<token>:x-oauth-basic@github.com`). */
const LONG_USER = 16;

/** A rule's accepted matches in `text`: offsets of the match and of the parts to hide (its `secret`, a long `user`). */
function* ruleMatches(rule: SecretRule, text: string) {
  rule.re.lastIndex = 0;
  for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
    if (rule.accept && !rule.accept(m.groups?.secret ?? m[0])) continue;
    const { secret, user } = m.indices?.groups ?? {};
    const hidden = [user && user[1] - user[0] >= LONG_USER ? user : undefined, secret].filter((p) => p !== undefined);
    yield { index: m.index, end: m.index + m[0].length, hidden };
  }
}
