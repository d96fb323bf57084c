/**
 * Values as a reader sees them: controls and invisible characters made visible, text made one line, and
 * text that a markdown table shows as it is. Layout is formats.ts's; this module only changes how a value reads.
 */

/** Values this long are rewritten a part at a time (replaceChars, replaceEach); shorter ones by String.replace. */
const LONG = 1 << 20;

/*
 * String.replace with a function gathers every match in one array first: at about 67 million matches V8 stopped
 * the process with a native stack trace (a 70 MB value of controls in `sql -f markdown`). A long value is
 * rewritten in parts; a result past JavaScript's longest string is a RangeError, which the query's printer
 * reports as a row too long to print.
 */

/**
 * `s.replace(re, fn)` for a global `re` that matches one character, or `\r\n`, whatever surrounds it: a million
 * characters at a time, never parting a surrogate pair or a `\r\n` (a part that would end inside one ends after it).
 */
export function replaceChars(s: string, re: RegExp, fn: (match: string) => string): string {
  if (s.length < LONG) return s.replace(re, fn);
  const parts: string[] = [];
  for (let at = 0; at < s.length; ) {
    let end = Math.min(at + LONG, s.length);
    const [c, next] = [s.charCodeAt(end - 1), s.charCodeAt(end)];
    if ((c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) || (c === 0x0d && next === 0x0a)) end++;
    parts.push(s.slice(at, end).replace(re, fn));
    at = end;
  }
  return parts.join('');
}

/**
 * `s.replace(re, fn)` for a global `re` that may read around its match (MARKUP), by its matches in turn. `re` must
 * match no empty string (exec would not move on) and `fn` must not use it (its lastIndex is this loop's place).
 */
function replaceEach(s: string, re: RegExp, fn: (match: string) => string): string {
  if (s.length < LONG) return s.replace(re, fn);
  const joined: string[] = [];
  let pieces: string[] = [];
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    pieces.push(s.slice(last, m.index), fn(m[0]));
    last = m.index + m[0].length;
    if (pieces.length >= LONG) {
      joined.push(pieces.join(''));
      pieces = [];
    }
  }
  pieces.push(s.slice(last));
  joined.push(pieces.join(''));
  return joined.join('');
}

/**
 * Text with its C0 controls (tab and newline excepted) and DEL shown as their Unicode pictures
 * (U+2400…U+2421): a NUL or an escape from the evidence is seen, never written raw into a page or an SVG.
 */
export const visibleControls = (s: string): string => replaceChars(s, CONTROLS, (c) => PICTURES[c.charCodeAt(0)]!);
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
// Each picture made once: a value of millions of controls had made a string of each.
const PICTURES = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c === 0x7f ? 0x2421 : 0x2400 + c));

/** What no reader sees: format and default-ignorable characters, noncharacters, lone surrogates, C1 (a RegExp class). */
export const INVISIBLE = '\\p{Cf}\\p{Default_Ignorable_Code_Point}\\p{Noncharacter_Code_Point}\\p{Cs}\\u0080-\\u009f';
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE}]`, 'gu');

/** `c`'s code point as Unicode names it: `U+202E`. */
export const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Text with its invisible characters (INVISIBLE) as code points in non-ASCII brackets (`⟨U+202E⟩`):
 * an override turns a terminal's line around, a zero-width space makes two arms one. Noncharacters
 * (U+FFFF) and lone surrogates too: no XML may hold them, and an SVG that did was refused.
 */
export const visibleFormat = (s: string): string => replaceChars(s, INVISIBLE_ALL, (c) => `⟨${codePoint(c)}⟩`);

/** A value as a terminal or a document shows it: its controls as pictures, its invisible characters as code points. */
export const displayed = (s: string): string => visibleFormat(visibleControls(s));

/**
 * A value as a terminal shows it: displayed, and the line and paragraph separators as code points too,
 * where a terminal or an editor may break the line (a page and an SVG draw them as they are).
 */
export const displayedInTerminal = (s: string): string => replaceChars(displayed(s), SEPARATORS, (c) => `⟨${codePoint(c)}⟩`);
const SEPARATORS = /[\u2028\u2029]/g;

const BREAKS = /[\n\t]/g;

/**
 * Rows whose every string, however deep, shows line breaks and tabs as pictures (␊, ␉), for the `text`
 * formats: a note holding a line break had added a row to a census rendered into a document.
 */
export function oneLineValues<T>(value: T): T {
  if (typeof value === 'string') return visibleFormat(replaceChars(value, BREAKS, (c) => (c === '\n' ? '\u240a' : '\u2409'))) as T;
  if (Array.isArray(value)) return value.map(oneLineValues) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, oneLineValues(v)])) as T;
  }
  return value;
}

/** A `text` format's output: `write` lays out `rows` made one-line (oneLineValues); what it writes is shown (visibleControls). */
export function textOf<T>(rows: T, write: (rows: T) => string): string {
  return visibleControls(write(oneLineValues(rows)));
}

/**
 * Text that a GitHub pipe-table cell shows literally: what would be markup is backslash-escaped (`*x*` had
 * become emphasis, `&amp;` an ampersand, `<b>` a tag), a line break is `<br>`, other controls are shown
 * (displayed). What starts no markup stays as it is: `]`, `_` within a word, `<` before no tag or link, `&` before no entity.
 * `ours`: the value is markdown of our own, whose markup stays.
 */
export function markdownText(s: string, ours = false): string {
  const escaped = replaceChars(
    replaceEach(s, ours ? OURS : MARKUP, (m) => m.replace(/./g, '\\$&')),
    LINE_BREAKS,
    () => '<br>',
  );
  return displayed(escaped);
}

// The `:` of `scheme://` and the `.` after any `www` too (cmark-gfm links one after `_`, where no \b is):
// its autolinks then make no link, whose text had shown the other escapes (`\_`) and whose target had held them.
const MARKUP =
  /[\\`*[~|]|<(?=[A-Za-z/!?])|&(?=#?[0-9A-Za-z]+;)|(?<![_\p{L}\p{N}])_+|_+(?![_\p{L}\p{N}])|(?<=[A-Za-z]):(?=\/\/)|(?<=[Ww]{3})\./gu;
/** Markdown of our own (the docs' columns): written as it is, but for what would break the table's cells. */
const OURS = /[\\|]/g;
const LINE_BREAKS = /\r?\n/g;
