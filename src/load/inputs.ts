/**
 * The input files, found one way: a probe directory's files (discoverProbe), the transcript files
 * under a folder (findTranscripts, listTranscriptFiles), and the one list of every input file a set
 * of inputs names (inputFiles), which `--db` freshness and render's provenance both use. Lists and
 * checks files; reads none.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from '../base/errors.js';
import { checkPath } from '../base/path-given.js';
import { danglingLink, statThere } from '../base/io-error.js';
import {
  bundledProbeDir,
  displayPath,
  inputFile,
  inputFolder,
  kindOf,
  listDir,
  listFiles,
  mustRead,
  namedFile,
  walkFiles,
} from '../base/paths.js';

export interface Probe {
  /** The directory's name, e.g. `0017-staged-agent-restores-layer-1`. */
  id: string;
  /** Absolute path. */
  dir: string;
  /** Whether it has a `registration/` folder. */
  registered: boolean;
}

type Kind = 'results' | 'tool_use' | 'tool_use_err' | 'skill_results' | 'notes' | 'registration';

export interface SourceFile {
  abs: string;
  probe: string;
  kind: Kind;
  /** Path relative to the probe directory, with `/`. */
  rel: string;
  /** For tool_use files: the session id the file name gives. */
  session: string | null;
}

const PROBE_HINT = 'give the path of a probe directory, one that holds results.jsonl';

/** A probe's directory, its real path and its results.jsonl; throws when it is no probe's. */
function probeDir(path: string): { dir: string; real: string; results: string } {
  const dir = resolve(path);
  const st = statThere(dir);
  if (!st?.isDirectory()) {
    const what = st ? 'not a directory, where a probe directory is expected' : 'no such probe directory';
    throw (!st && danglingLink(dir, PROBE_HINT)) || new InputError(`${displayPath(dir)}: ${what}`, PROBE_HINT);
  }
  // Every file is checked to be a regular file inside the probe before anything opens one.
  const real = realpathSync(dir);
  const results = join(dir, 'results.jsonl');
  if (!inputFile(results, real, dir)) throw new InputError(`${displayPath(dir)}: not a probe: it has no results.jsonl`, PROBE_HINT);
  return { dir, real, results };
}

/** The results.jsonl that extract's --results names, checked: a regular file, which may link anywhere. */
export function namedResults(path: string): { abs: string; dir: string } {
  const abs = resolve(path);
  const dir = dirname(abs);
  // A probe's folder, as the other commands take it: the hint had said to remove the folder.
  if (statThere(abs)?.isDirectory()) {
    const inside = join(abs, 'results.jsonl');
    const hint = existsSync(inside) ? `give the file itself: ${displayPath(inside)}` : 'give the path of a results.jsonl';
    throw new InputError(`${displayPath(abs)}: a directory, where a results.jsonl is expected`, hint);
  }
  // A file the user named: a dangling link or a FIFO there is said as that, with this hint.
  if (!existsSync(dir) || !namedFile(abs, 'a results.jsonl')) {
    throw new InputError(`${displayPath(abs)}: no such results file`, 'give the path of a results.jsonl');
  }
  return { abs, dir };
}

/**
 * Find a probe's files, and the entries of its tool_use/ that are none of them (`ignored`, paths
 * relative to the probe). Throws when the directory is missing or holds no results.jsonl.
 */
export function discoverProbe(path: string): { probe: Probe; files: SourceFile[]; ignored: string[] } {
  const { dir, real, results } = probeDir(path);
  const id = basename(dir);
  const files: SourceFile[] = [{ abs: results, probe: id, kind: 'results', rel: 'results.jsonl', session: null }];
  const toolDir = join(dir, 'tool_use');
  const ignored: string[] = [];
  if (inputFolder(toolDir, real, dir)) {
    for (const name of listDir(toolDir)
      .map((e) => e.name)
      .sort()) {
      // `s`: a name may hold a line break, and is then an orphan like any other.
      const m = /^(.*)\.(jsonl|err)$/s.exec(name);
      if (!m) {
        ignored.push(`tool_use/${name}`);
        continue;
      }
      // Listed, yet nothing by that name: a name that is not UTF-8 (listed with U+FFFD), said as such.
      if (!inputFile(join(toolDir, name), real, dir)) mustRead(join(toolDir, name));
      files.push({
        abs: join(toolDir, name),
        probe: id,
        kind: m[2] === 'jsonl' ? 'tool_use' : 'tool_use_err',
        rel: `tool_use/${name}`,
        session: m[1]!,
      });
    }
  }
  for (const [name, kind] of [
    ['skill_results.jsonl', 'skill_results'],
    ['notes.jsonl', 'notes'],
  ] as const) {
    if (inputFile(join(dir, name), real, dir)) files.push({ abs: join(dir, name), probe: id, kind, rel: name, session: null });
  }
  const regDir = join(dir, 'registration');
  const registered = inputFolder(regDir, real, dir);
  // The registration is the `*.jsonl` files directly in registration/. Records anywhere else there
  // (a `.json` or `.JSONL` file, a `.jsonl` in a folder, an `x.ndjson` or `x.jsonl.bak` beside them)
  // would be registered in the author's eyes and never read: each is an error, as nothing registered
  // may be dropped.
  if (registered) {
    for (const f of walkFiles(regDir)) {
      const direct = !f.rel.includes('/');
      if (direct && f.rel.endsWith('.jsonl')) {
        files.push({ abs: join(regDir, f.rel), probe: id, kind: 'registration', rel: `registration/${f.rel}`, session: null });
      } else if (/\.jsonl?$/i.test(f.rel) || (direct && !REGISTRATION_OTHERS.test(f.rel))) {
        const what = /\.jsonl?$/i.test(f.rel) ? 'registration records that are never read' : 'a file of registration/ that is never read';
        throw new InputError(
          `${displayPath(f.path)}: ${what}`,
          'the registration is the files named *.jsonl directly in registration/ (beside them: *.sql checks and triggers, README.md); rename or move it there, or out of registration/',
        );
      }
    }
  }
  return { probe: { id, dir, registered }, files, ignored };
}

/** What registration/ may hold directly beside its `*.jsonl` files: checks and triggers, a README, and Finder's own file. */
const REGISTRATION_OTHERS = /^(.+\.sql|README\.md|\.DS_Store)$/s;

const isTranscript = (name: string) => name.endsWith('.jsonl');

/** A transcript file: its absolute path, its transcripts folder, and its path relative to that. */
export interface TranscriptFile {
  abs: string;
  dir: string;
  rel: string;
}

/** `--transcripts FILE.jsonl`: that file alone, as if its folder held nothing else; else null. */
function singleTranscript(abs: string): TranscriptFile | null {
  if (!(isTranscript(abs) && existsSync(abs) && statSync(abs).isFile())) return null;
  // Checked as a folder's files are, before anything opens it: an unreadable one was "unexpected error".
  mustRead(abs);
  return { abs, dir: dirname(abs), rel: basename(abs) };
}

/** Every `*.jsonl` file under `dir`, recursively, sorted; or `dir` alone when it is one such file. */
export function listTranscriptFiles(dir: string): string[] {
  const one = singleTranscript(resolve(dir));
  return one ? [one.abs] : listFiles(dir, isTranscript);
}

/** A name that looks like a session file's and is not read: `B.JSONL`, `c.jsonl.gz`, `d.jsonl.bak`. */
const looksLikeTranscript = (name: string) => /\.jsonl/i.test(name) && !isTranscript(name);

/**
 * Every transcript file under each directory, recursively, sorted. Throws InputError when a
 * directory does not exist. Reads no file: loadTranscripts does. Pushes onto `warnings` one line
 * per directory naming the files it holds that look like sessions and are not read.
 */
export function findTranscripts(dirs: string[], warnings: string[] = []): TranscriptFile[] {
  const files: TranscriptFile[] = [];
  for (const d of dirs) {
    const dir = resolve(d);
    const one = singleTranscript(dir);
    if (one) {
      files.push(one);
      continue;
    }
    // A folder on the way that cannot be searched is said so (EACCES), not "no such" folder.
    const st = statThere(dir);
    if (!st?.isDirectory()) {
      const what = !st
        ? 'no such transcripts directory'
        : st.isFile()
          ? 'neither a folder nor a .jsonl file'
          : `${kindOf(st)}, where a folder or a .jsonl file is expected`;
      const hint = 'pass --transcripts DIR, the folder of the session files, e.g. ~/.claude/projects/<slug>';
      throw (!st && danglingLink(dir, hint)) || new InputError(`${displayPath(dir)}: ${what}`, hint);
    }
    const skipped: string[] = [];
    const keep = (name: string) => isTranscript(name) || (looksLikeTranscript(name) && skipped.push(name) < 0);
    for (const f of walkFiles(dir, keep, { keptNamesAreFiles: true })) files.push({ abs: f.path, dir, rel: f.rel });
    if (skipped.length) {
      const named = skipped.slice(0, 5).join(', ') + (skipped.length > 5 ? `, and ${skipped.length - 5} more` : '');
      warnings.push(`${displayPath(dir)}: ${skipped.length} file(s) not read, as only names ending in .jsonl are sessions: ${named}`);
    }
  }
  return files;
}

/** What a database is built from: probe directories and transcript folders, absolute. */
export interface Inputs {
  probes: string[];
  transcripts: string[];
}

/**
 * Refuse probe paths that name one probe twice: two of one id (a probe is named by its folder), or
 * one folder under two names (a link to it), whose rows would be counted twice. Every opener of
 * probes, and audit, comes here. Returns `paths`.
 */
export function refuseRepeatedProbes(paths: string[]): string[] {
  const seen: { dir: string; id: string; real: string }[] = [];
  for (const p of paths) {
    const dir = resolve(p);
    const id = basename(dir);
    const clash = seen.find((q) => q.id === id);
    if (clash) {
      throw new InputError(
        `${displayPath(dir)}: probe id "${id}" is already loaded from ${displayPath(clash.dir)}`,
        'a probe is named by its directory; load probes whose directory names differ',
      );
    }
    // A path that does not exist is refused by whatever reads it.
    const real = existsSync(dir) ? realpathSync(dir) : dir;
    const same = seen.find((q) => q.real === real);
    if (same) {
      throw new InputError(
        `${displayPath(dir)}: the folder of probe "${same.id}", already loaded from ${displayPath(same.dir)}`,
        'a probe is loaded once: name its folder by one path, not by a link to it too',
      );
    }
    seen.push({ dir, id, real });
  }
  return paths;
}

/** The inputs with every path absolute. */
export function normalize(inputs: Inputs): Inputs {
  return { probes: inputs.probes.map((p) => resolve(p)), transcripts: inputs.transcripts.map((t) => resolve(t)) };
}

/**
 * The input files, listed once: `loaded`, what loading reads (each probe's files as discoverProbe
 * finds them, then the transcript files), and `all`, those with each registration's SQL (read when
 * it is evaluated), unique and sorted. `all` is what a database file's freshness is taken of, and
 * what render's provenance hashes; `loaded` is what `load` checks its tables were built from.
 */
export function inputListing(inputs: Inputs): { loaded: string[]; all: string[] } {
  const loaded: string[] = [];
  const evaluated: string[] = [];
  for (const p of inputs.probes) {
    let listed: ReturnType<typeof discoverProbe>['files'];
    try {
      listed = discoverProbe(p).files;
    } catch {
      // Not a probe (any more): loading it says why, and a recorded file that is gone shows as removed.
      continue;
    }
    loaded.push(...listed.map((f) => f.abs));
    evaluated.push(...listFiles(join(p, 'registration'), (name) => !name.endsWith('.jsonl')));
  }
  for (const t of inputs.transcripts) if (existsSync(t)) loaded.push(...listTranscriptFiles(t));
  const sorted = (list: string[]) => [...new Set(list)].sort();
  return { loaded: sorted(loaded), all: sorted([...loaded, ...evaluated]) };
}

/** The one list of every input file the inputs name (inputListing's `all`). */
export const inputFiles = (inputs: Inputs): string[] => inputListing(inputs).all;

/** Whether namedInputs reads each probe's own transcripts/ (`--from transcripts`, or a command's default), not one folder named for all. */
export const ownTranscriptsRead = (transcripts: boolean | string | undefined, own = false): boolean =>
  transcripts === true || (transcripts === undefined && own);

/**
 * A probe's own transcripts/, checked as its tool_use/ is (a link must resolve inside the probe: one
 * to `/` had census walk the whole file system); undefined when absent. Throws when the probe is none.
 */
function ownTranscripts(probe: string): string | undefined {
  // A path that is no probe is said as every command says it, before its transcripts/.
  const { dir, real } = probeDir(probe);
  return inputFolder(join(dir, 'transcripts'), real, dir) ? join(dir, 'transcripts') : undefined;
}

/** The probes and transcript folders that `paths` and `options` name. */
export function namedInputs(paths: string[], transcripts: boolean | string | undefined, probesDefault: boolean, own = false): Inputs {
  // '' would be the current folder (as a probe, or as sessions): every opener of evidence comes here.
  for (const p of paths) checkPath('a probe path', p);
  if (typeof transcripts === 'string') checkPath('the transcripts', transcripts);
  const probes = paths.length ? paths : probesDefault ? [bundledProbeDir] : [];
  refuseRepeatedProbes(probes);
  if (transcripts === undefined && own) {
    return normalize({ probes, transcripts: probes.map(ownTranscripts).filter((d) => d !== undefined) });
  }
  const dirs =
    typeof transcripts === 'string'
      ? [transcripts]
      : transcripts === true
        ? probes.map((p) => {
            const dir = ownTranscripts(p);
            if (dir === undefined) {
              throw new InputError(
                `${displayPath(p)}: the probe has no transcripts/ folder`,
                'pass --transcripts DIR, the folder of its session files (e.g. ~/.claude/projects/<slug>)',
              );
            }
            return dir;
          })
        : [];
  return normalize({ probes, transcripts: dirs });
}
