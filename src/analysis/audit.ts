/**
 * The leak audit of a probe: every file under its folder, read as text, searched for home-directory
 * paths and secrets (leaks.ts). It reads the working tree, not git: a file there is one `git add`
 * away from being committed, and git is not run on a probe's behalf. `.git/` is skipped. A binary
 * file (a NUL byte in it) is searched as bytes, and again with its NUL bytes left out (UTF-16
 * text), with a warning that what it holds compressed goes unseen (audit-read.ts).
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { OmgError } from '../base/errors.js';
import { hide } from '../base/home-paths.js';
import { type Found, findLeaks, type Leak, type LeakKind, leakSpans } from '../base/leaks.js';
import { SESSION_SLUGS } from '../base/session-slugs.js';
import { walkFiles } from '../base/paths.js';
import { base64Leaks, readTexts } from './audit-read.js';

export interface Finding {
  /** The probe's id (its directory name). */
  probe: string;
  /** Relative to the probe directory, with `/`. */
  file: string;
  line: number;
  kind: LeakKind;
  /** The matched text, masked. */
  match: string;
}

export interface Audit {
  findings: Finding[];
  /** Files with a finding, counted by their own names (two may show alike, masked). */
  leaky: number;
  /** Files read, over every probe. */
  files: number;
  /** Things worth saying that change no exit code (a binary file searched as bytes). */
  warnings: string[];
}

/**
 * The leaks in a file's own name (its path in the probe, as a transcripts/ copy of a project
 * folder spells a home in it) and, for a symbolic link, in the path it points to, line 0 each.
 */
function namedLeaks(rel: string, path: string, options: { home?: string }): Leak[] {
  const seen = new Set<string>();
  const leaks: Leak[] = [];
  for (const { kind, masked } of nameSpans(rel, options)) {
    if (seen.has(`${kind}\0${masked}`)) continue;
    seen.add(`${kind}\0${masked}`);
    leaks.push({ line: 0, kind, masked });
  }
  for (const [, , lead, user] of rel.matchAll(SESSION_SLUGS))
    leaks.push({ line: 0, kind: 'home-path', masked: `${lead}${hide(user!, 1)}` });
  if (lstatSync(path).isSymbolicLink()) leaks.push(...findLeaks(readlinkSync(path), options).map((l) => ({ ...l, line: 0 })));
  return leaks;
}

/** A leak in a name, and the parts of `text` it hides (from, to). */
type Span = Found & { hidden: [number, number][] };

/**
 * The leaks in `text` (leakSpans), and in it with each `/` read as a space: each name of a path is a
 * text of its own, where a `/` before `%2Fhome%2Fa` is no home path's boundary. Each shows as `text`
 * spells it, with every part that any of them hides hidden: where two overlap, neither shows the other's.
 */
function nameSpans(text: string, options: { home?: string }): Span[] {
  const spans = [text, text.replaceAll('/', ' ')].flatMap((t) =>
    leakSpans(t, options).map((f) => ({
      ...f,
      hidden: hiddenParts(t.slice(f.index, f.end), f.masked).map(([a, b]): [number, number] => [f.index + a, f.index + b]),
    })),
  );
  const hidden = spans.flatMap((s) => s.hidden);
  return spans.sort((a, b) => a.index - b.index || b.end - a.end).map((s) => ({ ...s, masked: hideParts(text, s.index, s.end, hidden) }));
}

/**
 * The parts of `shown` that `masked` (as leakSpans masks it: each hidden part as stars, at most 8)
 * hides. One it cannot line up (a JSON escape read decoded) hides from where the two first differ
 * to where they last do: more hidden, never less.
 */
function hiddenParts(shown: string, masked: string): [number, number][] {
  const parts = masked.split(/(\*+)/u);
  const pattern = parts.map((p, i) =>
    // A space shown stands for a run of white space (a .netrc entry over lines shows on one).
    i % 2 === 0 ? p.replace(/[\\^$.*+?()[\]{}|]/gu, '\\$&').replaceAll(' ', '\\s+') : p.length < 8 ? `([^]{${p.length}})` : '([^]{8,}?)',
  );
  const m = new RegExp(`^${pattern.join('')}$`, 'du').exec(shown);
  if (m) return m.indices!.slice(1) as [number, number][];
  let [a, b] = [0, 0];
  while (a < Math.min(shown.length, masked.length) && shown[a] === masked[a]) a++;
  while (b < Math.min(shown.length, masked.length) - a && shown.at(-1 - b) === masked.at(-1 - b)) b++;
  return [[a, shown.length - b]];
}

/** `text` from `index` to `end`, each run of it that parts of `hidden` cover as stars (at most 8). */
function hideParts(text: string, index: number, end: number, hidden: [number, number][]): string {
  const off = new Array<boolean>(end - index).fill(false);
  for (const [from, to] of hidden) for (let i = Math.max(from, index); i < Math.min(to, end); i++) off[i - index] = true;
  let out = '';
  for (let i = index; i < end; ) {
    let j = i;
    while (j < end && off[j - index]) j++;
    out += j > i ? '*'.repeat(Math.min(j - i, 8)) : text[i++];
    i = Math.max(i, j);
  }
  return out;
}

/**
 * `text` (a file's path in its probe, a probe's name, an error message) with each home path and
 * secret in it masked as a finding shows it, leaks that overlap as one, and the user's name in a
 * session folder's name (`-home-a****-repo`): audit prints back nothing it finds.
 */
export function maskLeaks(text: string, options: { home?: string }): string {
  const spans = nameSpans(text, options);
  const hidden = spans.flatMap((s) => s.hidden);
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; ) {
    const index = spans[i]!.index;
    let end = spans[i]!.end;
    for (i++; i < spans.length && spans[i]!.index < end; i++) end = Math.max(end, spans[i]!.end);
    out += text.slice(at, index) + hideParts(text, index, end, hidden);
    at = end;
  }
  return (out + text.slice(at)).replace(SESSION_SLUGS, (_, before = '', lead: string, user: string) => before + lead + hide(user, 1));
}

/** An error of the walk or a read, its message and hint masked (maskLeaks): a file's name may hold what it flags. */
function masked(err: unknown, options: { home?: string }): unknown {
  if (!(err instanceof OmgError)) return err;
  const mask = (t: string) => maskLeaks(t, options);
  const Kind = err.constructor as new (message: string, hint?: string, o?: ErrorOptions & { details?: string[] }) => OmgError;
  return new Kind(mask(err.message), err.hint && mask(err.hint), { details: err.details.map(mask) });
}

/** $HOME as audit counts it: $HOME = / would make every absolute path a home path. */
const homeOption = (home: string | undefined) => ({ home: home && home.replace(/\/+$/, '') !== '' ? home : undefined });

/** maskLeaks with $HOME as auditProbes counts it: for every other line audit prints (its warnings). */
export const auditMask =
  (home: string | undefined) =>
  (text: string): string =>
    maskLeaks(text, homeOption(home));

/** A probe directory found to be one (load/inputs.ts discoverProbe, which the facade passes down). */
export type FindProbe = (dir: string) => { probe: { id: string; dir: string } };

/**
 * Audit probe directories, refused by `refuse` (two of one id, one under two names) and each checked
 * to be a probe by `discover` as it comes; `home` is the user's $HOME, whose every spelling counts
 * as a home path. Every error is masked: a refusal names the folders, which may hold what audit flags.
 */
export function auditProbes(dirs: string[], home: string | undefined, discover: FindProbe, refuse = (d: string[]) => d): Audit {
  const audit: Audit = { findings: [], leaky: 0, files: 0, warnings: [] };
  const options = homeOption(home);
  try {
    for (const dir of refuse(dirs)) auditProbe(dir, discover, options, audit);
  } catch (err) {
    throw masked(err, options);
  }
  return audit;
}

function auditProbe(dir: string, discover: FindProbe, options: { home?: string }, audit: Audit): void {
  const { probe } = discover(dir);
  // Names as printed: a name that holds a home path or a secret shows it masked, as its finding does.
  const id = maskLeaks(probe.id, options);
  for (const f of walkFiles(probe.dir, undefined, { skip: ['.git'], eachLink: true })) {
    const file = maskLeaks(f.rel, options);
    const before = audit.findings.length;
    // Its path, and a link's target, which git commits as the link's content: line 0.
    for (const leak of namedLeaks(f.rel, f.path, options)) {
      audit.findings.push({ probe: id, file, line: 0, kind: leak.kind, match: leak.masked });
    }
    const { binary, texts } = readTexts(f.path);
    if (binary)
      audit.warnings.push(`${id}/${file}: binary (a NUL byte in it): searched as bytes; what it holds compressed or encoded is not seen`);
    audit.files++;
    const seen = new Set<string>();
    // findLeaks reads JSON escapes too: a record's `\u002fhome\u002fx` is /home/x to whoever reads it.
    // And base64 runs, decoded: a key kept encoded in a config is a key.
    const leaks = [...texts.flatMap((t) => findLeaks(t, options)), ...texts.flatMap((t) => base64Leaks(t, options))].sort(
      (a, b) => a.line - b.line,
    );
    for (const leak of leaks) {
      const key = `${leak.line}\0${leak.kind}\0${leak.masked}`;
      if (seen.has(key)) continue;
      seen.add(key);
      audit.findings.push({ probe: id, file, line: leak.line, kind: leak.kind, match: leak.masked });
    }
    if (audit.findings.length > before) audit.leaky++;
  }
}
