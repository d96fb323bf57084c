/**
 * The provenance line that ends a rendered region, and what a region's body says about who wrote
 * it. The line's content= hash seals both the content above it and the line's own fields, so an
 * edit anywhere between the markers (a cell, a line added before the end marker, the provenance
 * line removed or altered) no longer matches: only a body exactly as render wrote it counts as
 * render's own, and only render's own (or nothing at all) may be overwritten without --force.
 */
import { hashFileLf, sha256 } from '../base/hash.js';

const PREFIX = '<!-- omg-evidence:provenance ';
const LINE = /^<!-- omg-evidence:provenance (\S(?:.*\S)?) content=([0-9a-f]{12}) -->$/;

export const shortHash = (data: string | Buffer) => sha256().update(data).digest('hex').slice(0, 12);

/** A chart's file as render compares it: its shortHash (each CRLF as LF), and whether it holds `data`. */
export function chartOnDisk(path: string, data: string): { hash: string; same: boolean } {
  const full = hashFileLf(path);
  return { hash: full.slice(0, 12), same: full === sha256().update(data).digest('hex') };
}

/** The hash of a region's content (its lines joined by \n, ending with one) and of the provenance fields. */
const seal = (fields: string, content: string) => shortHash(`${fields}\0${content}`);

/** The provenance line for `content` (the generated text, ending with \n), given its other fields. */
export function provenanceLine(fields: string, content: string): string {
  return `${PREFIX}${fields} content=${seal(fields, content)} -->`;
}

/**
 * What a region's body is: `new` when nothing is between the markers; `rendered` when it ends with
 * a provenance line that matches it exactly; `edited` otherwise. Lines carry no \r (a CRLF document's
 * line ending is not content). A line written before content= covered its own fields hashed the content
 * alone; it still counts as render's own, so documents rendered then are regenerated, not refused.
 */
export function bodyState(body: readonly string[]): 'new' | 'rendered' | 'edited' {
  if (body.length === 0) return 'new';
  const m = LINE.exec(body.at(-1)!);
  if (!m) return 'edited';
  const content = body
    .slice(0, -1)
    .map((l) => `${l}\n`)
    .join('');
  if (seal(m[1]!, content) === m[2]) return 'rendered';
  return content !== '' && shortHash(content) === m[2] ? 'rendered' : 'edited';
}
