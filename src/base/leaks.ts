/**
 * What must never leave the measuring machine, and how to find it in text: home-directory paths
 * (home-paths.ts) and secrets (API keys and tokens, private keys, credentials), each found at its
 * line with the match masked. Pure functions of strings: this module reads no file and no database.
 */
import { type HomePathOptions, hide, homePaths, maskHomePath } from './home-paths.js';

export type SecretKind =
  | 'anthropic-key'
  | 'openai-key'
  | 'aws-access-key-id'
  | 'aws-secret-key'
  | 'github-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'google-api-key'
  | 'google-oauth-token'
  | 'google-client-secret'
  | 'bearer-token'
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
/** A value that only stands for a secret: $VAR, ${VAR}, <token>, %s, ***, xxxx. */
const placeholder = (s: string) => /^(?:[$<{%]|\*+$|x+$)/iu.test(s);
/** Whitespace, or the escape of a line break or tab inside a JSON string. */
const WS = String.raw`(?:\s|\\[nrt])+`;

/** In priority order: where two matches overlap, the earlier rule's is kept. */
const SECRET_RULES: SecretRule[] = [
  { kind: 'private-key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/dgu },
  { kind: 'anthropic-key', re: /\bsk-ant-(?<secret>[A-Za-z0-9_-]{20,})/dgu, accept: mixed },
  { kind: 'openai-key', re: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?(?<secret>[A-Za-z0-9_-]{20,})/dgu, accept: mixed },
  // AWS documents AKIAIOSFODNN7EXAMPLE as its example key id.
  { kind: 'aws-access-key-id', re: /\b(?:AKIA|ASIA)(?<secret>[0-9A-Z]{16})\b/dgu, accept: (s) => !s.endsWith('EXAMPLE') },
  {
    kind: 'aws-secret-key',
    re: /(?:aws_?secret_?access_?key|secret_?access_?key)\\?["']?\s*[:=]\s*\\?["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgiu,
    accept: (s) => !s.endsWith('EXAMPLEKEY'),
  },
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_(?<secret>[A-Za-z0-9]{36,})\b/dgu },
  { kind: 'github-token', re: /\bgithub_pat_(?<secret>[A-Za-z0-9_]{22,})/dgu },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9/_-]{8,})/dgu },
  { kind: 'slack-token', re: /\bxox[abposr]-(?<secret>[A-Za-z0-9-]{10,})/dgu, accept: mixed },
  { kind: 'slack-token', re: /\bxapp-(?<secret>[0-9]-[A-Za-z0-9-]{10,})/dgu, accept: mixed },
  { kind: 'google-api-key', re: /\bAIza(?<secret>[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/dgu },
  { kind: 'google-oauth-token', re: /\bya29\.(?<secret>[0-9A-Za-z_-]{20,})/dgu, accept: mixed },
  { kind: 'google-client-secret', re: /\bGOCSPX-(?<secret>[0-9A-Za-z_-]{20,})/dgu },
  { kind: 'bearer-token', re: /\b[Bb]earer\s+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dgu, accept: mixed },
  {
    kind: 'netrc-password',
    re: new RegExp(String.raw`\bmachine${WS}\S+?${WS}(?:login${WS}\S+?${WS})?password${WS}(?<secret>[^\s\\"']+)`, 'dgu'),
    accept: (s) => !placeholder(s),
  },
  {
    kind: 'url-password',
    // The user may be empty (redis://:secret@host).
    re: /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/:@"'<>\\]*:(?<secret>[^\s/@"'<>\\]+)@[A-Za-z0-9.-]+/dgu,
    accept: (s) => !placeholder(s),
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

/** Mask the `secret` group of a match (the whole match when it has none shows as it is). */
function maskMatch(m: RegExpExecArray): string {
  const at = m.indices?.groups?.secret;
  if (!at) return m[0];
  const [start, end] = [at[0] - m.index, at[1] - m.index];
  const secret = m[0].slice(start, end);
  return m[0].slice(0, start) + hide(secret, prefixOf(secret)) + m[0].slice(end);
}

/** Start offset of each line of `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Every home path and secret in a file's text, by line, then by position. A match spanning lines
 * (a .netrc entry) is reported at its first line; the same masked text of the same kind is reported
 * once per line.
 */
export function findLeaks(text: string, options: Pick<HomePathOptions, 'home'> = {}): Leak[] {
  const starts = lineStarts(text);
  const found: { index: number; end: number; kind: LeakKind; masked: string }[] = [];
  const overlaps = (index: number, end: number) => found.some((f) => index < f.end && f.index < end);
  for (const rule of SECRET_RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      const end = m.index + m[0].length;
      const secret = m.groups?.secret ?? m[0];
      if (rule.accept && !rule.accept(secret)) continue;
      if (overlaps(m.index, end)) continue;
      // A match across lines (a .netrc entry) shows on one.
      found.push({ index: m.index, end, kind: rule.kind, masked: maskMatch(m).replace(/\s+/gu, ' ') });
    }
  }
  // A bare secret access key counts only near an access key id.
  const ids = found.filter((f) => f.kind === 'aws-access-key-id').map((f) => lineAt(starts, f.index));
  if (ids.length) {
    AWS_SECRET_NEAR.lastIndex = 0;
    for (let m = AWS_SECRET_NEAR.exec(text); m; m = AWS_SECRET_NEAR.exec(text)) {
      const line = lineAt(starts, m.index);
      const end = m.index + m[0].length;
      if (!ids.some((l) => Math.abs(l - line) <= AWS_NEAR_LINES) || !/[A-Z]/.test(m[0]) || !/[a-z]/.test(m[0]) || !/[0-9]/.test(m[0]))
        continue;
      if (overlaps(m.index, end)) continue;
      found.push({ index: m.index, end, kind: 'aws-secret-key', masked: maskMatch(m) });
    }
  }
  for (const p of homePaths(text, { home: options.home })) {
    if (overlaps(p.index, p.index + p.text.length)) continue;
    found.push({ index: p.index, end: p.index + p.text.length, kind: 'home-path', masked: maskHomePath(p) });
  }
  found.sort((a, b) => a.index - b.index);
  const seen = new Set<string>();
  const leaks: Leak[] = [];
  for (const f of found) {
    const leak = { line: lineAt(starts, f.index), kind: f.kind, masked: f.masked };
    const key = `${leak.line}\u0000${leak.kind}\u0000${leak.masked}`;
    if (seen.has(key)) continue;
    seen.add(key);
    leaks.push(leak);
  }
  return leaks;
}
