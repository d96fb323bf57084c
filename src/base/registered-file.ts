/**
 * A registered trigger or check file, read before it is evaluated (analysis/registration.ts) and
 * before the load that will evaluate it, for the tables it reads (load/tables-named.ts).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { inputFile, isWithin } from './paths.js';

/** The most bytes a registered trigger or check file may hold: it is read whole, and parsed, before it runs. */
export const MAX_REGISTERED_BYTES = 2 ** 20;

/** A registered trigger or check file (readRegisteredFile): its text, or why it is not read. */
export type RegisteredFile =
  | { abs: string; text: string }
  | { abs: string; refused: 'outside' | 'folder' | 'missing' }
  | { abs: string; refused: 'large'; size: number };

/**
 * The file `path` a registration record names (relative to `regDir`, its registration/ folder), read
 * whole when it is a regular file inside the folder of at most MAX_REGISTERED_BYTES. A link out of
 * the folder, a FIFO or an unreadable file is an InputError (inputFile), before anything opens it.
 */
export function readRegisteredFile(regDir: string, path: string): RegisteredFile {
  const abs = resolve(regDir, path);
  if (!isWithin(abs, regDir)) return { abs, refused: 'outside' };
  // A folder (a record's "" names registration/ itself) is the record's mistake, not a missing file.
  if (existsSync(abs) && statSync(abs).isDirectory()) return { abs, refused: 'folder' };
  if (!inputFile(abs, realpathSync(regDir), regDir)) return { abs, refused: 'missing' };
  const size = statSync(abs).size;
  if (size > MAX_REGISTERED_BYTES) return { abs, refused: 'large', size };
  return { abs, text: readFileSync(abs, 'utf8') };
}
