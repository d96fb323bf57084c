/**
 * The generated regions of a markdown document. A region is
 *
 *     <!-- omg-evidence:begin census probe=. format=text -->
 *     …generated…
 *     <!-- omg-evidence:provenance … content=<hash> -->
 *     <!-- omg-evidence:end -->
 *
 * This module finds the regions of a document (markers at the start of a line, outside fenced code)
 * and puts new bodies in their place; render.ts makes the bodies. Bytes outside the markers are
 * never touched.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { InputError } from '../base/errors.js';
import { displayPath, namedFile } from '../base/paths.js';
import { FenceScanner } from './fences.js';

const BEGIN = /^<!-- omg-evidence:begin(?:\s+(.*?))?\s*-->[ \t]*\r?$/;
const END = /^<!-- omg-evidence:end\s*-->[ \t]*\r?$/;
/**
 * A line that means to be a marker (in any case), indented, or in a list item or block quote, where GitHub shows it
 * as HTML: one not BEGIN or END is an error, never text (indented code aside). Seen through what a reader cannot see
 * (a BOM, a zero-width or no-break space: GitHub shows the region's text between two such markers) and dash look-alikes.
 */
const MARKER_LIKE = /^[\s\p{Cf}]*(?:(?:[-+*]|\d{1,9}[.)]|>)[\s\p{Cf}]*)*<!\p{Pd}+[\s\p{Cf}]*omg\p{Pd}evidence:/iu;

/** What a region can name besides a query: the command tables, and the two documentation tables. */
export const TABLES = ['census', 'skills', 'arms', 'verdict', 'cost', 'commands', 'queries', 'schema'] as const;

export interface Region {
  /** 1-based line of the begin marker. */
  begin: number;
  /** 1-based line of the end marker. */
  end: number;
  name: string;
  options: Record<string, string[]>;
  /** The lines between the markers, as they are. */
  body: string[];
}

export interface Parsed {
  path: string;
  /** The document's bytes as read: writing refuses if the file no longer holds them. */
  bytes: Buffer;
  lines: string[];
  regions: Region[];
  /** Things the user should know that do not stop rendering (doc:line first). */
  warnings: string[];
}

export function fail(doc: string, line: number, what: string, hint?: string, details: readonly string[] = []): never {
  throw new InputError(`${displayPath(doc)}:${line}: ${what}`, hint, { details: [...details] });
}

/** `key=value key="a b"` into a map of key → values (a key may repeat). */
function parseOptions(doc: string, line: number, text: string): Record<string, string[]> {
  const options: Record<string, string[]> = {};
  // A value that opens a quote is read to its closing quote: unclosed, it is no value (probe="../p
  // had named the folder `"../p`).
  const re = /\s*([A-Za-z_][\w-]*)=(?:"([^"]*)"|([^"\s]\S*))/y;
  let at = 0;
  let last: RegExpExecArray | undefined;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) {
      if (text.slice(at).trim() === '') break;
      const open = /^\s*([A-Za-z_][\w-]*)="[^"]*$/.exec(text.slice(at))?.[1];
      if (open !== undefined) fail(doc, line, `the value of ${open}= opens a quote it does not close`, `close it: ${open}="…"`);
      // probe="../p format="text": the first quote closed at the second option's, whose value is left over.
      const next = last?.[2] === undefined || !text.slice(at).includes('"') ? undefined : /\s([A-Za-z_][\w-]*)=/.exec(last[2])?.[1];
      if (next !== undefined) {
        fail(doc, line, `the value of ${last![1]}= opens a quote it does not close before ${next}=`, `close it: ${last![1]}="…"`);
      }
      fail(
        doc,
        line,
        `cannot read the marker's options at "${text.slice(at).trim()}"`,
        'options are key=value pairs, e.g. probe=. format=text',
      );
    }
    options[m[1]!] ??= [];
    options[m[1]!]!.push(m[2] ?? m[3]!);
    at = re.lastIndex;
    last = m;
  }
  return options;
}

/**
 * A document's text. Bytes that are not UTF-8 would be written back as U+FFFD, outside the regions
 * too: such a document is refused, naming the line of its first such byte.
 */
function utf8Text(bytes: Buffer, path: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, end < 0 ? bytes.length : end)) || end < 0) {
      throw new InputError(
        `${displayPath(path)}:${line}: not UTF-8 text`,
        'render reads and writes UTF-8 documents only; convert it first (iconv -t UTF-8)',
      );
    }
    start = end + 1;
  }
}

/** The largest document render reads: an ADR is some kilobytes. */
export const MAX_DOCUMENT_BYTES = 64 * 2 ** 20;

/** Find a document's regions. Throws (naming the line) on an unbalanced or nested marker. */
export function parseDocument(path: string): Parsed {
  // A folder, a FIFO (which would wait for a writer) or a device is named for what it is.
  const real = namedFile(path, 'a markdown document');
  if (!real) throw new InputError(`${displayPath(path)}: no such document`, 'give the path of a markdown file');
  // Read whole, and written whole again: one past JavaScript's longest string had been an "unexpected error".
  // The size is of the file read (one descriptor): a link turned to another file in between is not read whole.
  const fd = openSync(real, 'r');
  let bytes: Buffer;
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_DOCUMENT_BYTES) {
      throw new InputError(
        `${displayPath(path)}: ${size} bytes, past the ${MAX_DOCUMENT_BYTES / 2 ** 20} MiB a document may hold`,
        'render writes into a write-up: give it the document that holds the regions, not a data file',
      );
    }
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  const lines = utf8Text(bytes, path).split('\n');
  // GitHub ends a line at a lone carriage return too: where this reader would not, it cannot find its regions.
  const cr = lines.findIndex((l) => /\r(?!$)/.test(l));
  if (cr >= 0) {
    fail(
      path,
      cr + 1,
      'a carriage return that ends no line here, where GitHub ends one',
      'render reads documents whose lines end in LF or CRLF: convert its line ends first',
    );
  }
  return { path, bytes, lines, ...regionsOf(path, lines) };
}

/** The regions of a document's lines, and its warnings. */
function regionsOf(path: string, lines: string[]): { regions: Region[]; warnings: string[] } {
  const regions: Region[] = [];
  let open: { begin: number; name: string; options: Record<string, string[]> } | null = null;
  // Inside a region only its end marker counts (its own content has fences); outside, fenced code is text.
  const fences = new FenceScanner();
  // The fence open now (its line), and the first marker it holds: an unclosed one hides every marker after it.
  let openFence: { line: number; marker?: number } | null = null;
  lines.forEach((raw, i) => {
    // A byte-order mark before the first line is no part of it, as GitHub reads it.
    const text = i === 0 ? raw.replace(/^\uFEFF/, '') : raw;
    const line = i + 1;
    if (!open && fences.line(text)) {
      if (!openFence) openFence = { line };
      else if (!fences.inFence) openFence = null;
      else if (openFence.marker === undefined && (BEGIN.test(text) || END.test(text))) openFence.marker = line;
      return;
    }
    if (open) fences.skim(text);
    const b = BEGIN.exec(text);
    if (b) {
      if (open)
        fail(
          path,
          line,
          `nested marker: a region begins inside the region begun on line ${open.begin}`,
          'close each region with <!-- omg-evidence:end --> before the next begins',
        );
      const [name, ...rest] = (b[1] ?? '').split(/\s+/);
      if (!name) fail(path, line, 'the begin marker names nothing to render', `name one of ${TABLES.join(', ')} or a query`);
      open = { begin: line, name, options: parseOptions(path, line, rest.join(' ')) };
    } else if (END.test(text)) {
      if (!open) fail(path, line, 'an end marker with no region begun', 'remove it, or add the <!-- omg-evidence:begin … --> it closes');
      regions.push({ ...open, end: line, body: lines.slice(open.begin, i) });
      open = null;
    } else if (!open && MARKER_LIKE.test(text) && !fences.indentedCode) {
      // Outside a region, a misspelt or indented marker would leave its region silently unrendered.
      fail(
        path,
        line,
        `a line that looks like a marker but is not one${oddCharacters(text)}`,
        'write <!-- omg-evidence:begin NAME … --> or <!-- omg-evidence:end --> at the start of the line',
      );
    }
  });
  if (open) fail(path, (open as { begin: number }).begin, 'a region begun here is never ended', 'add <!-- omg-evidence:end --> after it');
  const warnings: string[] = [];
  const unclosed = openFence as { line: number; marker?: number } | null;
  if (fences.inFence && unclosed?.marker !== undefined) {
    warnings.push(
      `${displayPath(path)}:${unclosed.line}: the fenced code begun here is never closed, so it runs to the end of the document and the markers in it (from line ${unclosed.marker}) are text, not regions`,
    );
  }
  return { regions, warnings };
}

/** What of a marker-like line's start is not ASCII (an invisible or look-alike character, named by code point), if anything. */
function oddCharacters(text: string): string {
  const odd = [...new Set(MARKER_LIKE.exec(text)![0].match(/[^\x20-\x7e\t]/gu))];
  return odd.length
    ? `: it holds ${odd.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ')}, which a marker does not`
    : '';
}

/** Whether a region holds `body`: its lines as they are, a CRLF document's without their CR. */
export function holds(region: Region, body: string[]): boolean {
  return region.body.length === body.length && region.body.every((l, k) => l.replace(/\r$/, '') === body[k]);
}

/**
 * The document with every region's body replaced; bytes outside the markers are kept. The new lines
 * end as the begin marker's line does, so a CRLF document stays CRLF.
 */
export function applyRegions(doc: Parsed, rendered: { region: Region; body: string[] }[]): string {
  const lines: string[] = [];
  let at = 0;
  for (const r of rendered) {
    lines.push(...doc.lines.slice(at, r.region.begin));
    const cr = doc.lines[r.region.begin - 1]!.endsWith('\r') ? '\r' : '';
    lines.push(...r.body.map((l) => l + cr));
    at = r.region.end - 1;
  }
  lines.push(...doc.lines.slice(at));
  // What a region holds can end an HTML block open around it (at a blank line, or its end tag), and
  // so change what the lines after it are: the document written must hold the same regions.
  let after: Region[] = [];
  try {
    after = regionsOf(doc.path, lines).regions;
  } catch {}
  const moved = rendered.find((r, i) => after[i]?.name !== r.region.name || !holds(after[i]!, r.body));
  if (moved || after.length !== rendered.length) {
    fail(
      doc.path,
      (moved ?? rendered.at(-1))?.region.begin ?? 1,
      'once render wrote the regions, this one would not be read as it is now: an HTML block open around a region ends at a blank line or end tag of what render writes there, and the lines after it change meaning',
      'leave a blank line before each begin marker that follows an HTML tag, so that no HTML block holds a region',
    );
  }
  return lines.join('\n');
}
