/**
 * How much of a bad value an error quotes. The checks read one more character than SHOWN, so that
 * `quoted` cuts a longer value with an ellipsis: cut without one, it had read as the whole value.
 */
export const SHOWN = 60;

/** A value as an error quotes it: its first SHOWN characters, and an ellipsis when cut. */
export const quoted = (v: unknown): string => left(String(v), SHOWN);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The first `n` code points of `s`, with an ellipsis when cut. A cut is made between characters as a
 * reader sees them (never inside an emoji of several code points, or before a combining accent), and
 * not inside a JSON escape (`\u00e`, a lone `\`): the checks quote a value as its JSON text.
 */
export const left = (s: string, n: number): string => {
  // Only the start of `s` is read (a code point is at most two code units): never a whole long value.
  const cps = Array.from(s.slice(0, 2 * (n + 16)));
  if (cps.length <= n) return s;
  // Only the first n + 16 code points are segmented: a character longer than that is cut before.
  let cut = '';
  for (const { segment } of graphemes.segment(cps.slice(0, n + 16).join(''))) {
    if (Array.from(cut).length + Array.from(segment).length > n) break;
    cut += segment;
  }
  // An escape begun and not ended: its backslash is not itself escaped (an odd run of them before it).
  const open = /(\\+)(u[0-9A-Fa-f]{0,3})?$/.exec(cut);
  if (open && open[1]!.length % 2 === 1) cut = cut.slice(0, open.index + open[1]!.length - 1);
  return `${cut}…`;
};
