/**
 * How audit reads a file (analysis/audit.ts): as the text it is, whatever its encoding says, and
 * what base64 in it holds. Reads one file; knows nothing of probes.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../base/errors.js';
import { findLeaks, type Leak, lineAt, lineStarts } from '../base/leaks.js';
import { displayPath } from '../base/paths.js';

/** UTF-32 text after its byte-order mark; a unit that is no character is U+FFFD, a short last one dropped. */
function utf32(bytes: Buffer, littleEndian: boolean): string {
  const chars: string[] = [];
  for (let i = 4; i + 4 <= bytes.length; i += 4) {
    const cp = littleEndian ? bytes.readUInt32LE(i) : bytes.readUInt32BE(i);
    chars.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp));
  }
  return chars.join('');
}

/**
 * The texts to search in a file: its text as its byte-order mark says (UTF-32, UTF-16), else its
 * UTF-8 text, or for a binary file (a NUL byte anywhere in it) its bytes one character each, and
 * those bytes without their NULs (the ASCII of UTF-16 text, wherever it starts); line breaks stay
 * where they are in both. A file that cannot be read fails the audit: it cannot be called clean.
 */
export function readTexts(path: string): { binary: boolean; texts: string[] } {
  try {
    const bytes = readFileSync(path);
    const [b0, b1, b2, b3] = bytes;
    // UTF-32's marks first: UTF-32LE's starts as UTF-16LE's does.
    if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { binary: false, texts: [utf32(bytes, true)] };
    if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { binary: false, texts: [utf32(bytes, false)] };
    // UTF-16 that says so, whatever its first bytes hold; an odd last byte is no character.
    const units = bytes.subarray(2, bytes.length - (bytes.length % 2));
    if (b0 === 0xff && b1 === 0xfe) return { binary: false, texts: [units.toString('utf16le')] };
    if (b0 === 0xfe && b1 === 0xff) return { binary: false, texts: [Buffer.from(units).swap16().toString('utf16le')] };
    if (!bytes.includes(0)) return { binary: false, texts: [bytes.toString('utf8')] };
    return {
      binary: true,
      texts: [bytes.toString('latin1').replaceAll('\0', ' '), Buffer.from(bytes.filter((b) => b !== 0)).toString('latin1')],
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new InputError(
      `${displayPath(path)}: cannot read it (${code})`,
      'an audit reads every file of the probe; make it readable or move it out',
    );
  }
}

/** A run of base64 (standard or URL-safe) long enough to hold a key: 24 characters are 18 bytes. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}/g;

/**
 * The secrets that `text`'s runs of base64 decode to (`c2stYW50…` is `sk-ant…`), each at its run's
 * line. A run is decoded from each of its first four characters, so that a key encoded after a
 * glued-on word (`token_c2st…`) is still read from its own start; base64 split by line breaks, or
 * encoded twice, is not seen. Only a decoding that is text is searched, and for secrets alone: a UUID,
 * a hash or an image is a run too, and its bytes can spell a home path (`~w\`) by chance.
 */
export function base64Leaks(text: string, options: { home?: string }): Leak[] {
  const leaks: Leak[] = [];
  const starts = lineStarts(text);
  BASE64_RUN.lastIndex = 0;
  for (let m = BASE64_RUN.exec(text); m; m = BASE64_RUN.exec(text)) {
    const line = lineAt(starts, m.index);
    for (let skip = 0; skip < 4; skip++) {
      const decoded = Buffer.from(m[0].slice(skip), 'base64').toString('latin1');
      if (!printable(decoded)) continue;
      for (const leak of findLeaks(decoded, options)) if (leak.kind !== 'home-path') leaks.push({ ...leak, line });
    }
  }
  return leaks;
}

/** Whether at least 95% of `text` is printable ASCII, tabs and line breaks: text, not random bytes. */
function printable(text: string): boolean {
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c > 0x7e) bad++;
  }
  return bad * 20 <= text.length;
}
