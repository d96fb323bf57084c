/** A path a caller gives: '' is refused, since the system would read it as the current folder. */
import { UsageError } from './errors.js';

/** A path: '' would be the current folder (read as sessions or a probe, written into, or, for a db, taken for none). */
export const isPath = (v: unknown): boolean => typeof v === 'string' && v !== '';

/** `value`, when it is a path; else a UsageError naming `where`. */
export function checkPath(where: string, value: unknown): string {
  if (!isPath(value)) throw new UsageError(`${where} must be a path (a non-empty string)`);
  return value as string;
}
