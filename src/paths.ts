/**
 * Where things are: the package root (found from this module, so it works from src/ under vitest
 * and from the bundle in dist/ when installed), the bundled probe, the queries folder, and how a
 * path is shown to a user (relative to the working directory when it is inside it, so output is
 * stable).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'omg-evidence') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('omg-evidence: cannot find the package root');
    dir = up;
  }
}

/** The package's own directory. */
export const packageRoot: string = findRoot();

/** The probe every command uses when given no path. */
export const BUNDLED_PROBE = 'evidence/0017-staged-agent-restores-layer-1';
export const bundledProbeDir: string = join(packageRoot, BUNDLED_PROBE);

/** Folder of the public queries; a query's file name is its public name. */
export const queriesDir: string = join(packageRoot, 'queries');

/** The package version, for provenance lines and --version. */
export const packageVersion: string = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).version;

/** A path as shown to the user: relative to the working directory when inside it, else absolute. */
export function displayPath(p: string): string {
  const abs = resolve(p);
  const rel = relative(process.cwd(), abs);
  if (rel === '') return '.';
  if (rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) return abs;
  return rel;
}

/** Every file under `dir` (recursively, sorted by path) that `keep` accepts; none when `dir` is absent. */
export function listFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  return walkFiles(dir, keep).map((f) => f.path);
}

/**
 * listFiles, with each file's path relative to `dir` ('/'-separated) too. Paths are joined by
 * hand as the walk goes (path.join and path.relative cost three times the listing itself on
 * a thousand files); they come out as path.join would write them.
 */
export function walkFiles(dir: string, keep: (name: string) => boolean = () => true): { path: string; rel: string }[] {
  const out: { path: string; rel: string }[] = [];
  const walk = (prefix: string, rel: string) => {
    // Entry types come with the listing; only a symbolic link needs a stat to say what it points at.
    const entries = readdirSync(prefix === '' ? '.' : prefix, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = prefix + e.name;
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory() || (e.isSymbolicLink() && statSync(p).isDirectory())) walk(p + sep, r);
      else if (keep(e.name)) out.push({ path: p, rel: r });
    }
  };
  const root = normalize(dir);
  if (existsSync(root)) walk(root === '.' ? '' : root.endsWith(sep) ? root : root + sep, '');
  return out;
}
