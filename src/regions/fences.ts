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
  [/^<![A-Z]/, />/],
  [/^<!\[CDATA\[/i, /\]\]>/],
];
/** Kind 6: a block-level tag, open or closing; the block runs to a blank line. */
const HTML_TO_BLANK = new RegExp(
  `^</?(?:${[
    'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt',
    'fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu',
    'menuitem|nav|noframes|ol|optgroup|option|p|param|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul',
  ].join('|')})(?:[ \t>]|/>|$)`,
  'i',
);
/** Kind 7: a lone complete open or closing tag, of any other name; it runs to a blank line. */
const LONE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;
/** An ATX heading or a thematic break: a block of one line, never a paragraph or a list item. */
const ONE_LINE_BLOCK = /^(?:#{1,6}(?:[ \t]|$)|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$)/;
/** A setext heading's underline, under a paragraph line. */
const UNDERLINE = /^(?:=+|-+)[ \t]*$/;
/** A GFM table's delimiter row (`| --- | :-: |`), which makes the paragraph line above it a table's header. */
const DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** Whether `text` closes the fence that `open` (its run of backticks or tildes) opened: that character, at least as many. */
const closes = (open: string, text: string) => new RegExp(`^${open[0]}{${open.length},}[ \\t]*$`).test(text);
/** Whether a list item's marker is a number other than 1: such an item cannot interrupt a paragraph. */
const notOne = (marker: string) => /^\d/.test(marker) && Number(marker.slice(0, -1)) !== 1;
/** The cells of a table row, by its unescaped pipes. */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/).length;

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
  /** The paragraph's last line, which a delimiter row under it makes a table's header. */
  private paraLine = '';
  /** Whether the last line was a GFM table's row: no paragraph, but the next row continues it. */
  private table = false;
  /** Whether the last line was indented code (no marker there is a marker). */
  indentedCode = false;
  /** Whether the last line began a list item with nothing after its marker: a blank line ends such an item. */
  private emptyItem = false;
  /** The fence open in a block quote ('' when none), and whether the last line was in a quote, which ends it otherwise. */
  private quoteFence = '';
  private quoted = false;

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
      if (this.emptyItem) this.lists.pop();
      this.emptyItem = false;
      this.quoteFence = '';
      this.para = false;
      this.table = false;
      return this.fence !== null;
    }
    this.emptyItem = false;
    this.quoted = false;
    const fenced = this.block(text, lead);
    if (!this.quoted) this.quoteFence = '';
    this.para = !fenced && this.para;
    return fenced;
  }

  /** line() for a line that is not blank; it leaves `para` for the next line. */
  private block(text: string, lead: string): boolean {
    this.indentedCode = false;
    const row = this.table;
    this.table = false;
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
      if (col - f.base <= 3 && col >= f.base && closes(f.char.repeat(f.length), rest)) {
        this.fence = null;
        this.popTo(col);
        return true;
      }
      // A line less indented than the fence's list item ends the item, and the fence with it
      // (fenced code has no lazy continuation): the line is read as it would be outside.
      if (col >= f.base) return true;
      this.fence = null;
    }
    // Paragraph text continues its paragraph lazily, from outside the list items that hold it: it
    // ends none of them.
    if (this.para && col < (this.lists.at(-1) ?? 0) && !this.interrupts(col - this.contentAtOrBefore(col), col, rest)) {
      return false;
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
      if (at - base > 3) {
        this.indentedCode = !this.para;
        return false;
      }
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
      // A heading, a thematic break (`* * *` is one, not a list item), or a setext underline,
      // which ends the paragraph above it.
      if (ONE_LINE_BLOCK.test(tail) || (this.para && !outside && UNDERLINE.test(tail))) {
        this.para = false;
        return false;
      }
      // A block quote's lines never hold a marker or end a fence here; its fences end with it.
      if (tail.startsWith('>')) {
        const inner = tail.slice(1).replace(/^[ \t]/, '');
        const fence = OPEN.exec(inner.trimStart());
        // A fence in the quote holds its lines, which are then no paragraph, to its closing fence.
        if (this.quoteFence) {
          if (closes(this.quoteFence, inner.trimStart())) this.quoteFence = '';
          this.para = false;
        } else {
          this.quoteFence = fence ? (fence[1] ?? fence[2]!) : '';
          this.para = !fence && /\S/.test(inner) && !ONE_LINE_BLOCK.test(inner) && !/^[<>]/.test(inner);
        }
        this.paraIn = { lists: this.lists.length, quoted: true };
        this.quoted = true;
        return false;
      }
      if (this.para && !outside && tail.includes('|') && DELIMITER_ROW.test(tail) && cells(tail) === cells(this.paraLine)) {
        this.para = false;
        this.table = true;
        return false;
      }
      // A list item; an ordered one that does not start at 1, or an empty one, cannot interrupt a
      // paragraph, and is text.
      const item = LIST_ITEM.exec(tail);
      if (!item || (this.para && !outside && (item[0].length === tail.length || notOne(item[1]!)))) {
        if (row) {
          this.table = true;
          this.para = false;
          return false;
        }
        // Paragraph text; outside the paragraph's containers, it continues the paragraph lazily.
        if (!outside) this.paraIn = { lists: this.lists.length, quoted: false };
        this.para = true;
        this.paraLine = tail;
        return false;
      }
      const markerEnd = at + item[1]!.length;
      const gap = width(item[2]!, markerEnd);
      if (item[0].length === tail.length) {
        this.lists.push(markerEnd + 1);
        this.emptyItem = true;
        this.para = false;
        return false;
      }
      if (gap === 0) {
        if (!outside) this.paraIn = { lists: this.lists.length, quoted: false };
        this.para = true;
        this.paraLine = tail;
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

  /**
   * Whether a line at column `col`, `indent` past the content of the list item it is still in (outside the one
   * that holds the paragraph), starts a block there: any block, as that paragraph is not its container's (a lone
   * tag, or a list item numbered 2, does not continue it).
   */
  private interrupts(indent: number, col: number, rest: string): boolean {
    if (indent > 3) return false;
    if (OPEN.test(rest) || HTML_UNTIL.some(([begins]) => begins.test(rest)) || HTML_TO_BLANK.test(rest) || LONE_TAG.test(rest)) return true;
    if (ONE_LINE_BLOCK.test(rest) || rest.startsWith('>')) return true;
    const item = LIST_ITEM.exec(rest);
    return !!item && (item[0].length === rest.length || width(item[2]!, col + item[1]!.length) > 0);
  }

  /** The content column of the innermost list item a line at `col` is inside (0: none); the columns rise, so by halves, not a scan per line. */
  private contentAtOrBefore(col: number): number {
    let lo = 0;
    let hi = this.lists.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lists[mid]! <= col) lo = mid + 1;
      else hi = mid;
    }
    return lo ? this.lists[lo - 1]! : 0;
  }

  /** Close the list items a line indented to `col` is not inside. */
  private popTo(col: number): void {
    while (this.lists.length && col < this.lists.at(-1)!) this.lists.pop();
  }
}
