/**
 * Values as a reader sees them: controls and invisible characters made visible, text made one line, and
 * text that a markdown table shows as it is. Layout is formats.ts's; this module only changes how a value reads.
 */

/**
 * Text with its C0 controls (tab and newline excepted) and DEL shown as their Unicode pictures
 * (U+2400…U+2421): a NUL or an escape from the evidence is seen, never written raw into a page or an SVG.
 */
export const visibleControls = (s: string): string =>
  s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => String.fromCharCode(c === '\x7f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));

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
export const visibleFormat = (s: string): string => s.replace(INVISIBLE_ALL, (c) => `⟨${codePoint(c)}⟩`);

/** A value as a terminal or a document shows it: its controls as pictures, its invisible characters as code points. */
export const displayed = (s: string): string => visibleFormat(visibleControls(s));

/**
 * A value as a terminal shows it: displayed, and the line and paragraph separators as code points too,
 * where a terminal or an editor may break the line (a page and an SVG draw them as they are).
 */
export const displayedInTerminal = (s: string): string => displayed(s).replace(/[\u2028\u2029]/g, (c) => `⟨${codePoint(c)}⟩`);

/**
 * Rows whose every string, however deep, shows line breaks and tabs as pictures (␊, ␉), for the `text`
 * formats: a note holding a line break had added a row to a census rendered into a document.
 */
export function oneLineValues<T>(value: T): T {
  if (typeof value === 'string') return visibleFormat(value.replace(/[\n\t]/g, (c) => (c === '\n' ? '\u240a' : '\u2409'))) as T;
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
  const escaped = s.replace(ours ? OURS : MARKUP, (m) => m.replace(/./g, '\\$&')).replace(/\r?\n/g, '<br>');
  return displayed(escaped);
}

// The `:` of `scheme://` and the `.` after any `www` too (cmark-gfm links one after `_`, where no \b is):
// its autolinks then make no link, whose text had shown the other escapes (`\_`) and whose target had held them.
const MARKUP =
  /[\\`*[~|]|<(?=[A-Za-z/!?])|&(?=#?[0-9A-Za-z]+;)|(?<![_\p{L}\p{N}])_+|_+(?![_\p{L}\p{N}])|(?<=[A-Za-z]):(?=\/\/)|(?<=[Ww]{3})\./gu;
/** Markdown of our own (the docs' columns): written as it is, but for what would break the table's cells. */
const OURS = /[\\|]/g;
