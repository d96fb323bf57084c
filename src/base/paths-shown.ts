/** How a path is shown to the user, and whether one lies in a folder: what every message that names a path uses. */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Whether `p` is folder `dir` or lies under it (both absolute, or both relative to one folder). */
export function isWithin(p: string, dir: string): boolean {
  const rel = relative(dir, p);
  return !(rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel));
}

/** A path as shown to the user: relative to the working directory when inside it, else absolute. */
export function displayPath(p: string): string {
  const abs = resolve(p);
  if (!isWithin(abs, process.cwd())) return abs;
  const rel = relative(process.cwd(), abs) || '.';
  // A path that starts with - reads as stdout (-) or as an option: shown as one would type it for a file.
  return rel.startsWith('-') ? `./${rel}` : rel;
}
