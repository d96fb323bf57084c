/** Whether a transcript holds no line at all, for the warning that an empty result read nothing. */
import { closeSync, openSync, readSync } from 'node:fs';

/** Whether `file` holds no line: nothing but a byte order mark and blank lines (as DuckDB's reader skips them). */
export function holdsNoLine(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(65536);
    for (let at = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) return true;
      const from = at === 0 && n >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
      for (let i = from; i < n; i++) if (![0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c].includes(chunk[i]!)) return false;
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}
