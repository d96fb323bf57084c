/**
 * Fenced code in a markdown document, as CommonMark defines it: a fence is three or more backticks
 * or tildes after at most three spaces of indentation (counted from the content of the list item it
 * sits in, so a fence indented in a list counts); a backtick fence's info string holds no backtick;
 * the block is closed by a fence of the same character at least as long, with nothing but spaces
 * after it, or in a list item by a line indented less than the item's content, which ends the item;
 * or else it runs to the end of the document. Four spaces or more is indented code,
 * not a fence. A fence line inside an HTML block is HTML, not a fence: HTML blocks as GitHub's
 * parser (cmark-gfm, CommonMark 0.29) reads them, a `<pre>` to its closing tag, a comment to `-->`,
 * a `<div>` or a lone tag that does not continue a paragraph to a blank line. Render uses this to
 * know which lines are text that it must never read as markers.
 */

const OPEN = /^(?:(`{3,})[^`]*|(~{3,}).*)$/;
const LIST_ITEM = /^([-+*]|\d{1,9}[.)])([ \t]*)/;

/** HTML blocks of kinds 1 to 5: how each begins and the text that ends it. */
const HTML_UNTIL: [RegExp, RegExp][] = [
  [/^<(?:pre|script|style)(?:[ \t>]|$)/i, /<\/(?:pre|script|style)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];
/** Kind 6: a block-level tag, open or closing; the block runs to a blank line. */
const HTML_TO_BLANK = new RegExp(
  `^</?(?:${[
    'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt',
    'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu',
    'menuitem|nav|noframes|ol|optgroup|option|p|param|section|source|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul',
  ].join('|')})(?:[ \t>]|/>|$)`,
  'i',
);
/** Kind 7: a lone complete open or closing tag, of any other name; it runs to a blank line. */
const LONE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;
/** Lines that end a paragraph without being one: an ATX heading, a thematic break or a setext underline. */
const NOT_PARAGRAPH = /^(?:#{1,6}(?:[ \t]|$)|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)$)/;

/** The width in columns of a run of spaces and tabs starting at column `col` (tabs stop every 4). */
function width(ws: string, col = 0): number {
  let c = col;
  for (const ch of ws) c = ch === '\t' ? c + 4 - (c % 4) : c + 1;
  return c - col;
}

interface Fence {
  char: string;
  length: number;
  /** The column the fence's indentation is counted from (its list item's content, or 0). */
  base: number;
}

/** Feed a document's lines in order; each answer says whether that line is fenced code. */
export class FenceScanner {
  /** Content columns of the open list items, innermost last. */
  private lists: number[] = [];
  private fence: Fence | null = null;
  /** The HTML block open now: what ends it (null: a blank line), and its list item's content column. */
  private html: { until: RegExp | null; base: number } | null = null;
  /** Whether the last line was paragraph text, which a lone tag continues rather than interrupts. */
  private para = false;
  /** The containers that paragraph is in: its list items, and whether it is in a block quote. */
  private paraIn = { lists: 0, quoted: false };

  /** Whether the lines fed so far leave a fence open. */
  get inFence(): boolean {
    return this.fence !== null;
  }

  /** Whether this line belongs to fenced code: its opening and closing fences included. */
  line(raw: string): boolean {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lead = /^[ \t]*/.exec(text)![0];
    if (lead.length === text.length) {
      if (this.html?.until === null) this.html = null;
      this.para = false;
      return this.fence !== null;
    }
    const fenced = this.block(text, lead);
    this.para = !fenced && this.para;
    return fenced;
  }

  /** line() for a line that is not blank; it leaves `para` for the next line. */
  private block(text: string, lead: string): boolean {
    const col = width(lead);
    const rest = text.slice(lead.length);
    if (this.html) {
      // A line less indented than the block's list item ends the item, and the block with it.
      if (col >= this.html.base || this.html.base === 0) {
        if (this.html.until?.test(rest)) this.html = null;
        return false;
      }
      this.html = null;
    }
    if (this.fence) {
      const f = this.fence;
      const run = new RegExp(`^${f.char}{${f.length},}[ \\t]*$`).exec(rest);
      if (col - f.base <= 3 && col >= f.base && run) {
        this.fence = null;
        this.popTo(col);
        return true;
      }
      // A line less indented than the fence's list item ends the item, and the fence with it
      // (fenced code has no lazy continuation): the line is read as it would be outside.
      if (col >= f.base) return true;
      this.fence = null;
    }
    this.popTo(col);
    // A line outside the list item or block quote that holds the paragraph continues it only as
    // text (lazily): a lone tag there starts an HTML block, as cmark-gfm reads it.
    const outside = this.para && (this.lists.length < this.paraIn.lists || (this.paraIn.quoted && !rest.startsWith('>')));
    let base = this.lists.at(-1) ?? 0;
    let at = col;
    let tail = rest;
    for (;;) {
      // Indented code, unless it continues a paragraph.
      if (at - base > 3) return false;
      const open = OPEN.exec(tail);
      if (open) {
        const run = open[1] ?? open[2]!;
        this.fence = { char: run[0]!, length: run.length, base };
        return true;
      }
      const kind = HTML_UNTIL.find(([begins]) => begins.test(tail));
      if (kind) {
        // A block that ends on the line it begins is that line alone.
        if (!kind[1].test(tail.slice(1))) this.html = { until: kind[1], base };
        this.para = false;
        return false;
      }
      if (HTML_TO_BLANK.test(tail) || ((!this.para || outside) && LONE_TAG.test(tail))) {
        this.html = { until: null, base };
        this.para = false;
        return false;
      }
      // A block quote's lines never hold a marker or end a fence here; its fences end with it.
      if (tail.startsWith('>')) {
        const inner = tail.slice(1).replace(/^[ \t]/, '');
        this.para = /\S/.test(inner) && !OPEN.test(inner) && !NOT_PARAGRAPH.test(inner) && !/^[<>]/.test(inner);
        this.paraIn = { lists: this.lists.length, quoted: true };
        return false;
      }
      // A list item: its content starts after the marker and one to four spaces.
      const item = LIST_ITEM.exec(tail);
      if (!item) {
        // Paragraph text; outside the paragraph's containers, it continues the paragraph lazily.
        if (!outside) this.paraIn = { lists: this.lists.length, quoted: false };
        this.para = !NOT_PARAGRAPH.test(tail);
        return false;
      }
      const markerEnd = at + item[1]!.length;
      const gap = width(item[2]!, markerEnd);
      if (item[0].length === tail.length) {
        this.lists.push(markerEnd + 1);
        this.para = false;
        return false;
      }
      if (gap === 0) {
        if (!outside) this.paraIn = { lists: this.lists.length, quoted: false };
        this.para = true;
        return false;
      }
      if (gap >= 5) {
        // Indented code starts the item: its content column is one space past the marker.
        this.lists.push(markerEnd + 1);
        this.para = false;
        return false;
      }
      // The item's content is a block of its own: a lone tag there starts an HTML block.
      base = markerEnd + gap;
      this.lists.push(base);
      at = base;
      tail = tail.slice(item[0].length);
      this.para = false;
    }
  }

  /**
   * A line of a region's body: never a fence or a marker, but it ends an HTML block open around the
   * region as it would outside one (a `<div>` at a blank line, a `<pre>` at its end tag).
   */
  skim(raw: string): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.html && (this.html.until === null ? /^[ \t]*$/.test(text) : this.html.until.test(text))) this.html = null;
  }

  /** Close the list items a line indented to `col` is not inside. */
  private popTo(col: number): void {
    while (this.lists.length && col < this.lists.at(-1)!) this.lists.pop();
  }
}
